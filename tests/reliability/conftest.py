import pytest

from tests.reliability.realserver import database_url_for_test


@pytest.fixture
def ledger_url(transactional_db, tmp_path):
    """A database URL a gunicorn subprocess can share with this test (see realserver)."""
    return database_url_for_test(tmp_path)
