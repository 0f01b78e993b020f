"""Password reset, honest about mail.

Django's reset page mails a one-time link. A site with no mail server (a venue laptop, most
club servers) cannot: Django still answered "we've e-mailed you instructions" and logged an
error for every try. So the page asks ``can_send_mail`` first; without a mail server
(``DJANGO_EMAIL_HOST``, config/settings.py) it sends nothing and says so, with what to do
instead: the person who runs the site sets a new password with ``manage.py changepassword``.
With one, the page is Django's, as it was.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views


def can_send_mail() -> bool:
    """Has the site been given a mail server to send through."""
    return bool(settings.EMAIL_HOST)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "can_send_mail": can_send_mail()}

    def post(self, request, *args, **kwargs):
        if not can_send_mail():  # nothing to send with: the same words, no pretending
            return self.render_to_response(self.get_context_data())
        return super().post(request, *args, **kwargs)


password_reset = PasswordResetView.as_view()
