"""`manage.py api_token USERNAME`: print a new API token for the account.

The account's old token stops working at once. The token is printed only here, once: only
its digest is stored.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.common import tokens


class Command(BaseCommand):
    help = "Print a new API token for an account (its old token stops working)."

    def add_arguments(self, parser):
        parser.add_argument("username", help="the account's username")

    def handle(self, *args, username, **options):
        user_model = get_user_model()
        user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        if not user.is_active:
            raise CommandError(f"the user {username!r} is not active")
        self.stdout.write(tokens.token_issue(user=user))
