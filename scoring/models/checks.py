"""What the checks write of themselves: each book's last check and checkpoint, and when an
operator's routine last finished."""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.groups import Group
from scoring.models.sittings import Sitting


class BookCheck(models.Model):
    """The last check of one book (a sitting's or a group's) against its hash chain, as
    ``verify_ledger`` or a "Kiểm tra sổ" page ran it: whether it agreed and, if not, the
    first mismatch in both languages. While it says the book disagrees, the sitting's page,
    its live link and the group's page show so; a check that passes clears it."""

    sitting = models.OneToOneField(
        Sitting, null=True, blank=True, on_delete=models.CASCADE, related_name="book_check"
    )
    group = models.OneToOneField(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="book_check"
    )
    ok = models.BooleanField(default=True)
    message_vi = models.CharField(max_length=500, blank=True)
    message_en = models.CharField(max_length=500, blank=True)
    game = models.PositiveIntegerField(null=True, blank=True)
    checked_at = models.DateTimeField()

    class Meta:
        verbose_name = _("lần kiểm tra sổ")
        verbose_name_plural = _("lần kiểm tra sổ")
        constraints = [
            models.CheckConstraint(
                condition=Q(sitting__isnull=False, group__isnull=True)
                | Q(sitting__isnull=True, group__isnull=False),
                name="book_check_one_book",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sitting or self.group}: {'ok' if self.ok else 'mismatch'}"

    def message(self, lang: str) -> str:
        """The first mismatch in ``lang`` (the other language's when that one is missing)."""
        if lang.startswith("en"):
            return self.message_en or self.message_vi
        return self.message_vi or self.message_en


class LedgerCheck(models.Model):
    """Where ``verify_ledger`` last found a book agreeing with its history: the newest entry
    it checked, by id and by hash. ``verify_ledger --since`` (and the group's "Kiểm tra sổ"
    page) checks only what came after it; a checkpoint whose entry is gone or whose hash has
    changed is not trusted (the whole book is checked again). One row per book, a sitting's
    or a group's; written by the check itself, never by a write of the ledger."""

    sitting = models.OneToOneField(
        Sitting, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    group = models.OneToOneField(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # The newest history entry found agreeing (0: the book was empty), and its hash.
    entry_id = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, blank=True, default="")
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(sitting__isnull=True) ^ models.Q(group__isnull=True),
                name="ledger_check_one_book",
            )
        ]

    def __str__(self) -> str:
        return f"{self.sitting_id or self.group_id}: {self.entry_id}"


class Routine(models.Model):
    """When an operator's routine last finished: the nightly backup (``manage.py backup``) and
    the whole check of the books (``verify_ledger --all``, not ``--since``). ``/healthz`` tells
    their age, so an uptime monitor notices a timer that stopped. One row per routine,
    written only by those commands."""

    class Name(models.TextChoices):
        BACKUP = "backup", _("sao lưu")
        BOOKS = "books", _("kiểm tra toàn bộ sổ")

    name = models.CharField(max_length=20, choices=Name.choices, unique=True)
    finished_at = models.DateTimeField()
    # The backup's file; the count of books found disagreeing by the check.
    detail = models.CharField(max_length=500, blank=True)
    problems = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("việc định kỳ")
        verbose_name_plural = _("việc định kỳ")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} {self.finished_at:%Y-%m-%d %H:%M}"
