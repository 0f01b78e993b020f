"""The table pages, one view module a page. (The JSON API lives in scoring/api.py,
under /api/.)"""

from django.urls import path

from scoring.views import correct, game_new, offline, referee, seat_claim, table, undo, watch
from scoring.views import organiser as manage

app_name = "scoring"

urlpatterns = [
    path("games/new/", game_new.game_new, name="game_new"),
    path("games/<int:game_id>/", table.table, name="table"),
    path("games/<int:game_id>/keep/<str:secret>/", game_new.keep, name="keep"),
    path("games/<int:game_id>/again/", game_new.game_again, name="game_again"),
    path("games/<int:game_id>/sheet/", watch.sheet, name="sheet"),
    path("games/<int:game_id>/qr.svg", watch.qr, name="qr"),
    path("games/<int:game_id>/manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("games/<int:game_id>/call/", table.call, name="call"),
    path("games/<int:game_id>/deal/", table.deal, name="deal"),
    path("games/<int:game_id>/last-tricks/", table.last_tricks, name="last_tricks"),
    path("games/<int:game_id>/confirm/", table.confirm, name="confirm"),
    path("games/<int:game_id>/undo/", undo.undo, name="undo"),
    path("games/<int:game_id>/deals/<int:number>/correct/", correct.correct, name="correct"),
    path("games/<int:game_id>/release/", table.release, name="release"),
    path("games/<int:game_id>/me/", seat_claim.me, name="me"),
    path("games/<int:game_id>/claim/", seat_claim.claim, name="claim"),
    path("games/<int:game_id>/verdict/", seat_claim.verdict, name="verdict"),
    path("games/<int:game_id>/claims/<int:seat>/reset/", seat_claim.reset, name="claim_reset"),
    path("games/<int:game_id>/claims/<int:seat>/vouch/", seat_claim.vouch, name="seat_vouch"),
    path("games/<int:game_id>/manage/", manage.manage, name="manage"),
    path("games/<int:game_id>/manage/reopen/", manage.reopen, name="manage_reopen"),
    path("games/<int:game_id>/manage/confirm/", manage.confirm, name="manage_confirm"),
    path("games/<int:game_id>/manage/secret/", manage.secret, name="manage_secret"),
    path("games/<int:game_id>/referee/", referee.referee, name="referee_game"),
    path("referee/", referee.referee, name="referee"),
]
