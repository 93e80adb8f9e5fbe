from tests.browser import browser  # noqa: F401
from tests.postgres import postgres_server, postgres_url  # noqa: F401
