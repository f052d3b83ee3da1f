"""Computer players: plain protocol clients that read only their own seat's view."""
