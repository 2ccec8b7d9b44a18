"""The web layer: pages and dialogs (views/), the websocket (consumers/), the taps' dispatcher,
their forms and their arrival times, the middleware, the websocket routes and the guessing
throttle.

Nothing below it imports it (the layers contract in pyproject.toml)."""
