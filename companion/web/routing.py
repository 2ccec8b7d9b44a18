from django.urls import re_path

from companion.web.consumers.table import TableConsumer, refuse_websocket

websocket_urlpatterns = [
    re_path(r"^ws/t/(?P<code>[A-Z0-9]{1,8})/$", TableConsumer.as_asgi()),
    re_path(r"^ws/(?P<token>[A-Za-z0-9_-]{1,64})/$", TableConsumer.as_asgi()),
    # Any other path: the handshake is refused (HTTP 403), not a "No route found" traceback.
    re_path(r"", refuse_websocket),
]
