import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def helper(db):
    """A co-scorekeeper: invited to a sitting, not its owner."""
    return get_user_model().objects.create_user("nguoi_ghi_cung", password="mat-khau-dai-123")
