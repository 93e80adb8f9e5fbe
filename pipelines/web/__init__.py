"""The web server of `arbiter serve`: public pages, the JSON API, accounts and roles."""
