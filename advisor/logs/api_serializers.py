"""Output serializers of the log endpoints: the answer to a log queued for a worker."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.reverse import reverse

from advisor.models import JobLog


class LogQueuedSerializer(serializers.ModelSerializer[JobLog]):
    """A log larger than LOG_INLINE_BYTES, stored and waiting for a worker: GET its `url`
    for its status and, once done, its analysis."""

    url = serializers.SerializerMethodField()

    class Meta:
        model = JobLog
        fields = ["id", "url", "name", "status", "size_bytes", "assessment"]
        read_only_fields = fields

    def get_url(self, row: JobLog) -> str:
        return reverse("logs_api:detail", kwargs={"pk": row.pk}, request=self.context["request"])
