"""The HTTP views, one module per subject: the table's screens (table), taps over HTTP (acts),
dialogs, sessions (session), seat moves (handover), error pages (errors), what browsers ask for by
themselves (misc); what they share is in common."""
