# SPDX-License-Identifier: GPL-3.0-or-later
# App state sync, the send side (issue 18; protocol-features.md 2.7): our
# own mutations from the store's outbox built into patches, sent, committed
# once taken, rebuilt after a 409 (proto/appsync-send.c, driven by
# proto/appsync.c through proto/appsync-int.h).
libproto_a_SOURCES += proto/appsync-int.h proto/appsync-send.c
