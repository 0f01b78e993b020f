"""The tournaments app's own errors; views turn them into messages or JSON."""


class TournamentError(Exception):
    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(TournamentError):
    """The round or event is not in a state that allows this."""

    status = 409
