"""Read helpers both sides use: what the actions and the screens read alike of the stored rows
(the seats as the rules' inputs, the table's hero box, stored scores, a session's games).

Below the actions and the read side (the layers contract, pyproject.toml): they import the
models, the hooks and the rules, never an action, and write nothing.
"""
