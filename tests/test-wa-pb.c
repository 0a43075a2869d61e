/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/test-wa-pb.c -- checked protobuf unpacking (proto/pb.c). */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/err.h"
#include "proto/pb.h"
#include "wa6.pb-c.h"

/* HandshakeMessage{clientHello{ephemeral=32 bytes of 0x11}} packed. */
static size_t
hello(uint8_t *out)
{
	Wa__HandshakeMessage			 m = WA__HANDSHAKE_MESSAGE__INIT;
	Wa__HandshakeMessage__ClientHello	 h =
	    WA__HANDSHAKE_MESSAGE__CLIENT_HELLO__INIT;
	uint8_t					 e[32];

	memset(e, 0x11, sizeof(e));
	h.has_ephemeral = 1;
	h.ephemeral.data = e;
	h.ephemeral.len = sizeof(e);
	m.clienthello = &h;
	return wa__handshake_message__pack(&m, out);
}

static void
test_wa_pb_unpack__reads_a_handshake_message(void **state)
{
	uint8_t				 buf[64];
	size_t				 len = hello(buf);
	ProtobufCMessage		*m = NULL;
	Wa__HandshakeMessage		*hm;

	(void)state;
	assert_int_equal(len, 36);	/* 12 22 0a 20 + 32 */
	assert_int_equal(wa_pb_unpack(&wa__handshake_message__descriptor, buf,
	    len, &m), 0);
	hm = (Wa__HandshakeMessage *)m;
	assert_non_null(hm->clienthello);
	assert_int_equal(hm->clienthello->ephemeral.len, 32);
	assert_int_equal(hm->clienthello->ephemeral.data[31], 0x11);
	protobuf_c_message_free_unpacked(m, NULL);
}

static void
test_wa_pb_check__refuses_every_truncation(void **state)
{
	uint8_t		 buf[64];
	size_t		 len = hello(buf), cut;

	(void)state;
	/* Cuts inside a field are refused; 0 bytes is an empty message. */
	for (cut = 1; cut < len; cut++)
		assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor,
		    buf, cut, WA_PB_MAX_DEPTH), WC_ETRUNC);
}

static void
test_wa_pb_check__refuses_nesting_past_the_limit(void **state)
{
	uint8_t		 buf[64];
	size_t		 len = hello(buf);

	(void)state;
	/* Two levels: HandshakeMessage, then ClientHello. */
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, buf,
	    len, 2), 0);
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, buf,
	    len, 1), WC_EDEPTH);
}

static void
test_wa_pb_check__refuses_bad_wire_types_and_long_varints(void **state)
{
	static const uint8_t	 group[] = { 0x13, 0x14 };	/* field 2, type 3 */
	static const uint8_t	 zero[] = { 0x00, 0x01 };	/* field 0 */
	static const uint8_t	 longv[] = { 0x08, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t	 hugelen[] = { 0x12, 0xff, 0xff, 0xff, 0xff,
	    0x0f };
	ProtobufCMessage	*m = NULL;

	(void)state;
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, group,
	    sizeof(group), 8), WC_EPROTO);
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, zero,
	    sizeof(zero), 8), WC_EPROTO);
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, longv,
	    sizeof(longv), 8), WC_EPROTO);
	assert_int_equal(wa_pb_unpack(&wa__handshake_message__descriptor,
	    hugelen, sizeof(hugelen), &m), WC_ETRUNC);
	assert_null(m);
}

static void
test_wa_pb_check__keeps_unknown_fields_opaque(void **state)
{
	/* Field 9 (unknown), length 3, whose bytes would be a bad message. */
	static const uint8_t	 unk[] = { 0x4a, 0x03, 0x13, 0x13, 0x13 };

	(void)state;
	assert_int_equal(wa_pb_check(&wa__handshake_message__descriptor, unk,
	    sizeof(unk), 1), 0);
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_wa_pb_unpack__reads_a_handshake_message),
		cmocka_unit_test(test_wa_pb_check__refuses_every_truncation),
		cmocka_unit_test(test_wa_pb_check__refuses_nesting_past_the_limit),
		cmocka_unit_test(test_wa_pb_check__refuses_bad_wire_types_and_long_varints),
		cmocka_unit_test(test_wa_pb_check__keeps_unknown_fields_opaque),
	};

	return cmocka_run_group_tests_name("wa_pb", tests, NULL, NULL);
}
