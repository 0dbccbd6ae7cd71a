from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Before Django's accounts/ pages: the site's own password reset pages answer first.
    path("", include("scoring.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
]

# A database that is down is a 503 page, not a bare 500 (see tienlen_site/plumbing/unavailable.py).
handler500 = "tienlen_site.plumbing.unavailable.server_error"
