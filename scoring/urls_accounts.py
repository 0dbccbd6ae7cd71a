"""The password reset pages (Django's views, in the site's look, only where mail works).

Included before ``django.contrib.auth.urls``, so these paths answer first.
"""

from django.urls import path

from scoring.views import accounts

urlpatterns = [
    path("password_reset/", accounts.password_reset, name="password_reset"),
    path("password_reset/done/", accounts.password_reset_done, name="password_reset_done"),
    path(
        "reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("reset/done/", accounts.password_reset_complete, name="password_reset_complete"),
]
