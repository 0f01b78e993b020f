"""One list of an event's editable settings (tournaments.common.event_settings) and one vocabulary
(tournaments.common.vocabulary): the forms, the services, the log and the models agree because
they read the same place: one default pairing mode for the services, the models and the
form, one default for placing points."""

import pytest

from tournaments.common import event_settings, vocabulary
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.forms import EventSettingsForm
from tournaments.events.services.event import club_create, event_create
from tournaments.models import Event, Round
from tournaments.rounds.services.rounds import round_create, round_refusal

from .conftest import register

pytestmark = pytest.mark.django_db


def club():
    return club_create(name="Club")


def form_values(**changes) -> dict:
    """What the settings form posts for a new event, its defaults untouched."""
    form = EventSettingsForm()
    data = {name: form[name].initial for name in form.fields}
    data.update(name="Open", pairing_list="", **changes)
    return {name: "" if value is None else value for name, value in data.items()}


def test_a_new_event_gets_the_same_settings_from_the_form_and_from_the_service():
    form = EventSettingsForm(data=form_values())
    assert form.is_valid(), form.errors
    from_form = event_create(club=club(), **form.settings())
    from_service = event_create(club=club(), name="Open")
    assert from_form.pairing_modes == from_service.pairing_modes == ["swiss"]
    assert from_form.pairing_mode(1) == vocabulary.DEFAULT_PAIRING_MODE
    assert (from_form.bye_policy, from_form.void_policy) == ("second", "bye")
    shown = EventSettingsForm.initial_from(from_service)
    assert shown["pairing_mode"] == EventSettingsForm().fields["pairing_mode"].initial
    points = [shown[name] for name in ("placing_first", "placing_second", "placing_third")]
    assert tuple(points) == vocabulary.DEFAULT_PLACING_POINTS


def test_the_form_falls_back_to_the_events_default_mode_not_the_first_listed():
    form = EventSettingsForm(data=form_values())
    assert form.is_valid(), form.errors
    form.cleaned_data.pop("pairing_mode")  # as when the field is left out
    assert form.clean()["pairing_modes"] == [vocabulary.DEFAULT_PAIRING_MODE]
    assert vocabulary.DEFAULT_PAIRING_MODE != list(vocabulary.PAIRING_MODE_LABELS)[0]


def test_apply_checks_sets_and_names_what_changed():
    event = Event(**event_settings.defaults())
    event.name = "Open"
    changed = event_settings.apply(event, {"name": "  Spring   Open ", "bye_policy": "zero"})
    assert changed == ["name", "bye_policy"]
    assert (event.name, event.bye_policy) == ("Spring Open", "zero")
    assert event_settings.standings_changed(changed)
    assert not event_settings.standings_changed(["name", "rounds_planned"])


@pytest.mark.parametrize(
    "values, code",
    [
        ({"name": " "}, "event_name_missing"),
        ({"name": "x" * 121}, "event_name_too_long"),
        ({"rounds_planned": 0}, "rounds_planned_invalid"),
        ({"pairing_modes": ["zigzag"]}, "pairing_mode_unknown"),
        ({"void_policy": "half"}, "void_policy_unknown"),
        ({"placing_points": [0, 2, 1]}, "placing_points_order"),
        ({"precedence": ["lot", "score"]}, "lot_not_last"),
        ({"bye_policy": "double"}, "bye_policy_invalid"),
    ],
)
def test_a_refused_setting_leaves_the_event_as_it_was(values, code):
    event = event_create(club=club(), name="Open")
    before = event_settings.settings_of(event)
    with pytest.raises(TournamentError) as refused:
        event_settings.apply(event, values)
    assert refused.value.code == code
    assert event_settings.settings_of(event) == before


def test_every_editable_setting_is_a_field_of_the_event_with_its_label():
    fields = {field.name for field in Event._meta.get_fields()}
    assert set(event_settings.SETTING_NAMES) <= fields
    assert set(event_settings.SETTING_LABELS) == set(event_settings.SETTING_NAMES)
    assert set(event_settings.STANDINGS_SETTINGS) == {
        "precedence",
        "placing_points",
        "bye_policy",
        "void_policy",
        "team_scoring",  # docs/team-standings.md
        "team_precedence",
    }


def test_the_models_choices_and_labels_come_from_the_vocabulary():
    assert Round._meta.get_field("pairing_mode").choices == list(
        vocabulary.PAIRING_MODE_LABELS.items()
    )
    assert [v for v, _ in Event._meta.get_field("bye_policy").choices] == list(
        vocabulary.BYE_POLICY_LABELS
    )
    assert tuple(vocabulary.METRIC_WORDS) == vocabulary.METRICS


def test_the_three_players_rule_is_the_services_own(organised_event):
    """The dashboard asks services.round_refusal what round_create would say."""
    register(organised_event, 2)
    refusal = round_refusal(organised_event)
    assert isinstance(refusal, NotAllowed) and refusal.code == "too_few_players"
    with pytest.raises(NotAllowed) as refused:
        round_create(event=organised_event)
    assert (refused.value.code, refused.value.params) == (refusal.code, refusal.params)
    register(organised_event, 1, start=10)
    assert round_refusal(organised_event) is None
