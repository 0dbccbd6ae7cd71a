"""What the checks write of themselves: each book's last check and checkpoint, and when an
operator's routine last finished."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models.groups import Group
from scoring.models.sittings import Sitting


class BookCheck(models.Model):
    """What the checks of one book (a sitting's or a group's) against its hash chain leave:
    one row per book, written only by its checks, never by a write of the ledger.

    The last verdict, as ``verify_ledger`` or a "Kiểm tra sổ" page ran the check and
    ``services.book_check_record`` kept it: whether it agreed and, if not, the first mismatch
    in both languages. While it says the book disagrees, the sitting's page, its live link
    and the group's page show so; a check that passes clears it.

    The checkpoint: where a check (``scoring.ledger.verify``) last found the book agreeing,
    the newest entry it checked by id and by hash. ``verify_ledger --since`` (and the group's
    "Kiểm tra sổ" page) checks only what came after it; a checkpoint whose entry is gone or
    whose hash has changed is not trusted (the whole book is checked again). A check that
    finds a mismatch leaves it where it was."""

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
    # The newest history entry found agreeing (None: no check has found the book agreeing
    # yet), its hash, and when.
    checkpoint_entry = models.PositiveBigIntegerField(null=True, blank=True)
    checkpoint_hash = models.CharField(max_length=64, blank=True, default="")
    checkpoint_at = models.DateTimeField(null=True, blank=True)

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
