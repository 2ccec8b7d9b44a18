"""The websocket, one socket per screen (`table.TableConsumer`), in parts: admission (who may
open it, the caps, giving the slot back), sync (snapshots, sync, the heartbeat's version),
socket_taps (taps and status questions), layer_probe (the Redis layer's probe), faults (close
codes and the faults the app expects)."""
