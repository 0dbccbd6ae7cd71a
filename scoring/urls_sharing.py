from django.urls import path

from scoring.views import sharing

urlpatterns = [
    path("s/<int:pk>/share/", sharing.sitting_share, name="sitting_share"),
    path(
        "s/<int:pk>/share/withdraw/<int:invitation_id>/",
        sharing.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "s/<int:pk>/share/remove/<int:user_id>/",
        sharing.scorekeeper_remove,
        name="scorekeeper_remove",
    ),
    path("s/<int:pk>/leave/", sharing.sitting_leave, name="sitting_leave"),
    path("invitations/<int:invitation_id>/", sharing.invitation_page, name="invitation"),
    path(
        "invitations/<int:invitation_id>/accept/",
        sharing.invitation_answer,
        {"answer": "accept"},
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        sharing.invitation_answer,
        {"answer": "decline"},
        name="invitation_decline",
    ),
]
