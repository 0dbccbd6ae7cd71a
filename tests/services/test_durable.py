"""A service is the whole write: run inside someone else's transaction, it refuses at once
rather than letting its locks, its history and its news on commit belong to that write."""

import pytest
from django.db import transaction

from scoring import services
from scoring.models import Group
from tests.factories import open_sitting

pytestmark = pytest.mark.django_db


def test_it_refuses_to_run_inside_another_transaction(owner):
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        services.group_create(owner=owner, name="Thứ Sáu")
    assert not Group.objects.filter(name="Thứ Sáu").exists()


def test_an_undo_refuses_too_though_it_runs_a_void_inside_its_own_write(owner):
    sitting = open_sitting(owner)
    services.sitting_undo(sitting=sitting, user=owner)  # nothing to undo: changes nothing
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        services.sitting_undo(sitting=sitting, user=owner)
