"""The web app's routers: api (views, actions), ws (live sockets), host (the host's API), pages (HTML)."""
