"""URL patterns of this area; see the views module of the same name."""

urlpatterns: list = []
