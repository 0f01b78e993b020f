"""The site's sessions: Django's database sessions, each read by one plain statement.

Every page a table's keeper or a signed-in organiser opens reads the session first, and
building that read as a queryset (`Session.objects.get(session_key=…, expire_date__gt=now)`)
cost about a third of the keeper's page outside its templates (docs/performance.md, cost
per request). The same statement is written here once per process from the model's names,
its parameters prepared and its values converted as the ORM does (config.plain_reads).
Everything else (the cookie, signing, expiry, cycling the key on login, writes, flushing,
clearsessions) is Django's own, unchanged."""

from __future__ import annotations

import functools

from django.contrib.sessions.backends import db
from django.db import connection
from django.utils import timezone

from config import plain_reads

#: What a session's read takes from its row (each column's name is its field's).
COLUMNS = ("session_key", "session_data", "expire_date")


@functools.cache
def _statement(model, vendor: str) -> tuple[str, plain_reads.Converters]:
    """The read of one live session by its key, named from the model (`vendor` keys it per
    database), and the ORM's converters of the columns it reads."""
    meta = model._meta
    fields = [meta.get_field(name) for name in COLUMNS]
    sql, converters = plain_reads.select(meta, fields, where=meta.pk)
    expiry = connection.ops.quote_name(meta.get_field("expire_date").column)
    return f"{sql} AND {expiry} > %s", converters


class SessionStore(db.SessionStore):
    """django.contrib.sessions.backends.db's store, reading a session without a queryset."""

    def _get_session_from_db(self):
        """The live session of this key as `model.objects.get` would give it (its row as a
        model), or None, forgetting the key, for none or an expired one, as Django's does."""
        model = self.model
        sql, converters = _statement(model, connection.vendor)
        meta = model._meta
        key = meta.pk.get_db_prep_value(self.session_key, connection, prepared=False)
        now = meta.get_field("expire_date").get_db_prep_value(
            timezone.now(), connection, prepared=False
        )
        values = plain_reads.one_row(sql, [key, now], converters)
        if values is None:
            self._session_key = None
            return None
        return model.from_db(connection.alias, COLUMNS, values)
