"""`companion play`: the server, the controller, the input router, the lights and the table display together."""
