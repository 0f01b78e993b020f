"""The admin as a window, not a door: operators look at every row, and change none there.

Every write of the site goes through the apps' services (one transaction, the audit trail, the
standings build they enqueue); a row edited in the admin would skip all of that. So the apps
register their models with `ReadOnlyAdmin`: lists, filters and search for operators, and no
add, change or delete. The pages and the API are where things are done.
"""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model's list and detail pages, with nothing to add, change or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """A parent's rows on its page (a game's deals, a round's tables), to read only."""

    extra = 0
    show_change_link = True

    def get_readonly_fields(self, request, obj=None):
        # Shown, not edited: this also lets `fields` name fields Django would not put in a
        # form at all (auto_now_add times, non-editable ones).
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
