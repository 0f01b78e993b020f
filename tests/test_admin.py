"""The admin: every model of scoring and tournaments can be looked at, and none changed there.

Writes go through the services (the audit trail, the standings they keep in step), so the
admin is read-only (config.readonly_admin); only an API token may be deleted, to end it.
"""

import pytest
from django.apps import apps
from django.contrib import admin
from django.core import checks
from django.test import Client
from django.utils import timezone

from scoring.models import DealEntry, Game, GameChange, SeatClaim, Verdict
from tournaments.club_models import ClubInvitation, NewcomerRequest
from tournaments.models import (
    ApiToken,
    Bye,
    Club,
    ClubGame,
    ClubLog,
    Entry,
    Event,
    EventLog,
    Player,
    Rating,
    RatingStep,
    Round,
    Season,
    Standings,
    StandingsText,
    Table,
)
from tournaments.team_models import KeepApart, Team, TeamMember

MODELS = [
    model for app in ("scoring", "tournaments") for model in apps.get_app_config(app).get_models()
]
#: Deleting an API token ends it: the operator's way to stop a leaked one.
DELETABLE = {ApiToken}


def url(model, page: str, obj=None) -> str:
    base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    return {
        "list": base,
        "add": base + "add/",
        "change": f"{base}{obj.pk if obj else 0}/change/",
        "delete": f"{base}{obj.pk if obj else 0}/delete/",
    }[page]


@pytest.fixture
def rows(django_user_model):
    """One row of every model, linked as the site links them."""
    user = django_user_model.objects.create_user(username="olga", password=None)
    club = Club.objects.create(name="Sofia club", slug="sofia")
    ana, boris, vera, gosho = (
        Player.objects.create(club=club, name=name) for name in ("Ana", "Boris", "Vera", "Gosho")
    )
    event = Event.objects.create(club=club, name="Spring cup", slug="spring-cup")
    event.organisers.add(user)
    game = Game.objects.create(
        ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0, totals=[0, 0, 0]
    )
    round_ = Round.objects.create(event=event, number=1, pairing_mode="swiss")
    made = {
        Club: club,
        Player: ana,
        Event: event,
        Entry: Entry.objects.create(event=event, player=ana, checked_in=True),
        Round: round_,
        Table: Table.objects.create(
            round=round_, number=1, seat_0=ana, seat_1=boris, seat_2=vera, game=game
        ),
        Bye: Bye.objects.create(round=round_, player=gosho),
        Standings: Standings.objects.create(event=event, rows=[]),
        EventLog: EventLog.objects.create(event=event, actor="olga", action="event_created"),
        ApiToken: ApiToken.objects.create(user=user, digest="d" * 64),
        Game: game,
        DealEntry: DealEntry.objects.create(game=game, number=1, calls=["hearts"]),
        GameChange: GameChange.objects.create(
            game=game, actor="olga", action=GameChange.Action.CREATED
        ),
        SeatClaim: SeatClaim.objects.create(game=game, seat=0, holder="h" * 64),
        Verdict: Verdict.objects.create(game=game, seat=0, agrees=False, reason="Ana", version=1),
        ClubLog: ClubLog.objects.create(club=club, actor="olga", action="members_merged"),
        ClubInvitation: ClubInvitation.objects.create(
            club=club, digest="i" * 64, made_by="olga", note="Ana", expires_at=timezone.now()
        ),
        NewcomerRequest: NewcomerRequest.objects.create(event=event, name="Ana's friend"),
        Team: (team := Team.objects.create(event=event, name="Ana's team")),
        TeamMember: TeamMember.objects.create(team=team, entry=Entry.objects.get(player=ana)),
        KeepApart: KeepApart.objects.create(event=event, label="Ana and Boris"),
        Season: Season.objects.create(club=club, name="Ana's autumn"),
        ClubGame: ClubGame.objects.create(
            game=Game.objects.create(
                ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0, totals=[0] * 3
            ),
            club=club,
            seat_0=ana,
            seat_1=boris,
            seat_2=vera,
        ),
        Rating: Rating.objects.create(player=ana, mu=25, sigma=8, ordinal=1, games=1),
        RatingStep: RatingStep.objects.create(
            club=club,
            player=ana,
            game=game,
            batch_at=timezone.now(),
            batch="e1r1",
            place=1,
            mu=25,
            sigma=8,
            ordinal=1,
        ),
    }
    made[StandingsText] = StandingsText.objects.create(
        snapshot=made[Standings], language="en", mark="m"
    )
    return made


@pytest.fixture
def operator(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser(username="root", password=None))
    return client


def test_the_admin_registrations_pass_django_checks():
    assert [str(error) for error in checks.run_checks(tags=[checks.Tags.admin])] == []


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_every_model_has_an_admin_page(model):
    assert admin.site.is_registered(model)


@pytest.mark.django_db
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_each_model_is_listed_searched_and_shown(model, rows, operator):
    obj = rows[model]
    listing = operator.get(url(model, "list"))
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == model.objects.count() >= 1
    assert operator.get(url(model, "list"), {"q": "Ana"}).status_code == 200
    shown = operator.get(url(model, "change", obj))
    assert shown.status_code == 200
    assert not shown.context["has_change_permission"]


@pytest.mark.django_db
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_nothing_is_added_or_changed_in_the_admin(model, rows, operator):
    obj = rows[model]
    assert operator.get(url(model, "add")).status_code == 403
    assert operator.post(url(model, "add"), {}).status_code == 403
    before = model.objects.count()
    operator.post(url(model, "change", obj), {"name": "changed", "number": 9})
    obj_after = model.objects.get(pk=obj.pk)
    assert [getattr(obj_after, f.attname) for f in model._meta.concrete_fields] == [
        getattr(obj, f.attname) for f in model._meta.concrete_fields
    ]
    assert model.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", [m for m in MODELS if m not in DELETABLE], ids=lambda model: model.__name__
)
def test_nothing_is_deleted_in_the_admin(model, rows, operator):
    obj = rows[model]
    assert operator.get(url(model, "delete", obj)).status_code == 403
    operator.post(url(model, "delete", obj), {"post": "yes"})
    operator.post(
        url(model, "list"), {"action": "delete_selected", "_selected_action": [obj.pk], "post": 1}
    )
    assert model.objects.filter(pk=obj.pk).exists()


@pytest.mark.django_db
def test_an_api_token_may_be_deleted_to_end_it(rows, operator):
    token = rows[ApiToken]
    assert operator.get(url(ApiToken, "delete", token)).status_code == 200
    operator.post(url(ApiToken, "delete", token), {"post": "yes"})
    assert not ApiToken.objects.filter(pk=token.pk).exists()


@pytest.mark.django_db
def test_a_tables_secret_is_never_shown(rows, operator):
    game = rows[Game]
    pages = [
        operator.get(url(Game, "list")),
        operator.get(url(Game, "change", game)),
        operator.get(url(Table, "change", rows[Table])),
        operator.get(url(DealEntry, "list")),
    ]
    for page in pages:
        assert game.secret not in page.content.decode()
    assert operator.get(url(Game, "list"), {"q": game.secret}).context["cl"].result_count == 0


@pytest.mark.django_db
def test_search_finds_by_name(rows, operator):
    found = operator.get(url(Table, "list"), {"q": "Boris"}).context["cl"].result_count
    assert found == 1
    none = operator.get(url(Player, "list"), {"q": "nobody"}).context["cl"].result_count
    assert none == 0


@pytest.mark.django_db
def test_an_organiser_who_is_not_staff_gets_no_admin(rows):
    client = Client()
    client.force_login(rows[Event].organisers.get())
    response = client.get(url(Event, "list"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_a_parents_page_shows_its_rows_to_read(rows, operator):
    """A game's page lists its deals and history; a round's, its tables and byes; an event's,
    its rounds: each to read, with nothing to add or change among them."""
    for parent, shown in [
        (Game, [DealEntry, GameChange]),
        (Round, [Table, Bye]),
        (Event, [Round]),
    ]:
        page = operator.get(url(parent, "change", rows[parent]))
        inlines = {
            formset.formset.model: formset for formset in page.context["inline_admin_formsets"]
        }
        assert set(inlines) == set(shown)
        for model, formset in inlines.items():
            assert [form.original for form in formset] == [rows[model]]
            assert not formset.has_add_permission and not formset.has_change_permission
