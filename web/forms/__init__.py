"""Forms of the server-rendered pages."""
