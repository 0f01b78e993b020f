"""API tokens in the admin: who has one and when it was last used; deleting one ends it.
The digest is never shown and a token is never made here (the account page or
``manage.py api_token`` show a new one once)."""

from django.contrib import admin

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "last_used_at")
    search_fields = ("user__username",)
    fields = ("user", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
