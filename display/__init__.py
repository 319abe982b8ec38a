"""The table display: a pygame client of the public view that draws the table for everyone to see."""
