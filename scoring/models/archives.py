"""A group's archive: the background tasks that import or build one, and the one kept for
download."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.models.groups import Group


class ArchiveTask(models.Model):
    """A group's archive imported, or built for download, by the background worker
    (``scoring.services.archive_tasks``): what a person asked for, how far it got, and what
    came of it. A person has at most one unfinished (a constraint); a worker writes
    ``heartbeat_at`` at each step, and an unfinished task whose heartbeat is older than
    ``settings.ARCHIVE_TASK_STALE_SECONDS`` is reported failed when it is read."""

    class Kind(models.TextChoices):
        IMPORT = "import", pgettext_lazy("task", "nhập nhóm")
        EXPORT = "export", pgettext_lazy("task", "bản lưu trữ nhóm")

    class Step(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("task", "đang chờ")
        READING = "reading", pgettext_lazy("task", "đang đọc tệp")
        WRITING = "writing", pgettext_lazy("task", "đang kiểm tra và ghi")
        BUILDING = "building", pgettext_lazy("task", "đang tạo bản lưu trữ")
        DONE = "done", pgettext_lazy("task", "xong")
        FAILED = "failed", pgettext_lazy("task", "không xong")

    class Failure(models.TextChoices):
        NONE = "", ""
        REFUSED = "refused", pgettext_lazy("task", "bản lưu trữ bị từ chối")
        TOO_LARGE = "too_large", pgettext_lazy("task", "nhóm quá lớn")
        STOPPED = "stopped", pgettext_lazy("task", "máy chạy nền đã dừng")
        CRASHED = "crashed", pgettext_lazy("task", "lỗi bất ngờ")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="archive_tasks"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    step = models.CharField(max_length=10, choices=Step.choices, default=Step.QUEUED)
    failure = models.CharField(max_length=10, choices=Failure.choices, blank=True, default="")
    # The group exported, or the group an import made (once it is done).
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # An import's uploaded file, until the task finishes (within the request limit: megabytes).
    upload = models.BinaryField(default=b"")
    # The language the person asked in: the importer words its refusals in it.
    language = models.CharField(max_length=8, default="vi")
    # What came of it: an import's counts and the name it took; an export's version and size.
    result = models.JSONField(default=dict, blank=True)
    # A refused archive's problems, [{"path", "message"}], worded by the importer in ``language``.
    problems = models.JSONField(default=list, blank=True)
    # The django.tasks result this task runs as (its id in the task backend).
    task_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("việc chạy nền")
        verbose_name_plural = _("việc chạy nền")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One unfinished task per person: a second is refused by the database too, even
            # when two requests start one at the same moment.
            models.UniqueConstraint(
                fields=["owner"],
                condition=Q(finished_at__isnull=True),
                name="archive_task_one_unfinished_per_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.step})"

    def get_absolute_url(self) -> str:
        return reverse("archive_task", args=[self.pk])

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class KeptArchive(models.Model):
    """A group's archive as built for ``version`` (``scoring.ledger.archive_store``), served
    again without rebuilding until the book changes; one per group, replaced by a newer one."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="+")
    version = models.CharField(max_length=200)
    data = models.BinaryField()  # gzipped, as downloaded
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("bản lưu trữ đã tạo")
        verbose_name_plural = _("bản lưu trữ đã tạo")

    def __str__(self) -> str:
        return f"{self.group_id} @ {self.version}"
