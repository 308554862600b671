"""REST API of the invitations that link a player to a user account with its consent
(``tournaments.invitations``): an organiser invites (``POST /api/players/N/invitations/``,
or ``user`` when creating a player), the invited user lists, accepts and declines their
own invitations. The answers to the organiser never tell account states apart."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import invitations, selectors
from tournaments.api_base import ApiView
from tournaments.models import PlayerInvitation
from tournaments.serializers import PersonField, PlayerOut

__all__ = [
    "InvitationAcceptApi",
    "InvitationDeclineApi",
    "InvitationListApi",
    "PlayerInviteApi",
]


class InvitationOut(serializers.ModelSerializer[PlayerInvitation]):
    player = PlayerOut()
    invited_by = PersonField(help_text="the organiser who invited: their display name")

    class Meta:
        model = PlayerInvitation
        fields = ("id", "player", "invited_by", "state", "created_at", "answered_at")


class InvitedOut(serializers.Serializer[Any]):
    detail = serializers.CharField()


def invited_answer() -> dict[str, str]:
    """The one answer an inviter gets, whatever the account (``tournaments.invitations``)."""
    return {
        "detail": _(
            "If that account can be linked, its user now sees the invitation and decides. "
            "The player is linked once they accept."
        )
    }


class PlayerInviteApi(ApiView):
    class PlayerInviteInput(serializers.Serializer[Any]):
        user = serializers.IntegerField(min_value=1, max_value=2**31 - 1)

    @extend_schema(request=PlayerInviteInput, responses={202: InvitedOut})
    def post(self, request: Request, pk: int) -> Response:
        """Invite a user account to be this player's.

        Registry staff, and organisers whose player this is alone (every tournament the
        player is entered in is theirs; 403 ``not_your_player`` otherwise); 409
        ``player_linked`` for a player linked already. The answer is the same 202
        whether the account exists, is linked to a player or is free: only a free
        account gets the invitation, which its user accepts or declines.
        """
        player = selectors.player_get(pk=pk, by=request.user)
        data = self.PlayerInviteInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitations.player_invite(
            player=player, user_id=data.validated_data["user"], by=request.user
        )
        return Response(invited_answer(), status=status.HTTP_202_ACCEPTED)


class InvitationListApi(ApiView):
    @extend_schema(responses=InvitationOut(many=True))
    def get(self, request: Request) -> Response:
        """List the open invitations to your own account (sign-in needed)."""
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return Response(InvitationOut(invitations.invitation_list(by=request.user), many=True).data)


class InvitationAcceptApi(ApiView):
    @extend_schema(request=None, responses={200: PlayerOut})
    def post(self, request: Request, pk: int) -> Response:
        """Accept an invitation to your account: you are linked to its player.

        404 for an invitation to someone else; 409 ``invitation_closed`` when answered
        already, ``player_linked`` when the player is someone else's by now,
        ``account_linked`` when you play as another player already.
        """
        invitation = invitations.invitation_get(pk=pk, by=request.user)
        player = invitations.invitation_accept(invitation=invitation, by=request.user)
        return Response(PlayerOut(player).data)


class InvitationDeclineApi(ApiView):
    @extend_schema(request=None, responses={200: InvitationOut})
    def post(self, request: Request, pk: int) -> Response:
        """Decline an invitation to your account: nothing is linked.

        404 for an invitation to someone else; 409 ``invitation_closed`` when answered
        already.
        """
        invitation = invitations.invitation_get(pk=pk, by=request.user)
        declined = invitations.invitation_decline(invitation=invitation, by=request.user)
        return Response(InvitationOut(declined).data)
