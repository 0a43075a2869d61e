/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-kinds20.c -- the message kinds of issue 20 read: the vCard
 * parser (proto/vcard.c: folding, escapes, waid=, groups, quoted
 * parameters; hostile cards: oversized, deep nesting, too many lines,
 * long fields, controls), the rich records (base/rich.c: written,
 * parsed, said in words, the OpenStreetMap link, the card's numbers)
 * and wa_msg_parse() of locations, live locations, contact cards,
 * link previews, view-once media and unknown kinds (proto/msg-rich.c;
 * protocol-features.md 3.2, 3.3, 3.4, 3.6).
 */
#include "base/compat.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "e2e.pb-c.h"
#include "proto/msg.h"
#include "proto/vcard.h"

/* --- vCards --- */

static void
vc(const char *s, struct wa_vcard *v)
{
	assert_int_equal(wa_vcard_parse(s, strlen(s), v), 0);
}

static void
test_vcard__baileys_card(void **state)
{
	struct wa_vcard	 v;

	(void)state;
	vc("BEGIN:VCARD\nVERSION:3.0\nFN:Jeff Singh\nORG:Ashoka Uni;\n"
	    "TEL;type=CELL;type=VOICE;waid=911234567890:+91 12345 67890\n"
	    "END:VCARD", &v);
	assert_string_equal(v.name, "Jeff Singh");
	assert_int_equal(v.ntel, 1);
	assert_string_equal(v.tel[0].number, "+91 12345 67890");
	assert_string_equal(v.tel[0].waid, "911234567890");
}

static void
test_vcard__folding_escapes_groups_crlf(void **state)
{
	struct wa_vcard	 v;

	(void)state;
	vc("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ben\\, Jr.\\nthe second\r\n"
	    "item1.TEL;TYPE=\"HOME:WORK\";WAID=\"4930111\":+49 30\r\n 111\r\n"
	    "tel:+1 555\r\n\t0100\r\nEND:VCARD\r\n", &v);
	assert_string_equal(v.name, "Ben, Jr. the second");
	assert_int_equal(v.ntel, 2);
	assert_string_equal(v.tel[0].number, "+49 30111");
	assert_string_equal(v.tel[0].waid, "4930111");
	assert_string_equal(v.tel[1].number, "+1 5550100");
	assert_string_equal(v.tel[1].waid, "");
}

static void
test_vcard__n_when_no_fn_and_bad_waid(void **state)
{
	struct wa_vcard	 v;

	(void)state;
	vc("BEGIN:VCARD\nN:Lima;Ana;;;\nTEL;waid=12ab:+55 11 5555\n"
	    "TEL;waid=123456789012345678901:+55 11 6666\nTEL:no digits\n"
	    "END:VCARD", &v);
	assert_string_equal(v.name, "Ana Lima");
	assert_int_equal(v.ntel, 2);
	assert_string_equal(v.tel[0].waid, "");	/* not all digits */
	assert_string_equal(v.tel[1].waid, "");	/* 21 digits */
}

static void
test_vcard__controls_become_spaces(void **state)
{
	struct wa_vcard	 v;

	(void)state;
	vc("BEGIN:VCARD\nFN:Eve\x1b[31m\x07\nTEL:+1\x1b 555\nEND:VCARD", &v);
	assert_null(strchr(v.name, 0x1b));
	assert_null(strchr(v.name, 0x07));
	assert_string_equal(v.name, "Eve [31m");
	assert_null(strchr(v.tel[0].number, 0x1b));
}

static void
test_vcard__nested_card_skipped_deep_refused(void **state)
{
	struct wa_vcard	 v;
	struct buf	 b = BUF_INIT;
	int		 i;

	(void)state;
	vc("BEGIN:VCARD\nFN:Outer\nAGENT:\nBEGIN:VCARD\nFN:Inner\n"
	    "TEL:+1 999\nEND:VCARD\nTEL:+1 111\nEND:VCARD", &v);
	assert_string_equal(v.name, "Outer");
	assert_int_equal(v.ntel, 1);
	assert_string_equal(v.tel[0].number, "+1 111");
	for (i = 0; i < 1000; i++)
		buf_append(&b, "BEGIN:VCARD\n", 12);
	assert_int_equal(wa_vcard_parse((const char *)b.p, b.len, &v),
	    WC_EDEPTH);
	assert_string_equal(v.name, "");
	buf_release(&b);
}

static void
test_vcard__huge_and_long_fields(void **state)
{
	struct wa_vcard	 v;
	size_t		 n = WA_VCARD_MAX + 1, i;
	char		*p = xmalloc(n + 64);

	(void)state;
	memset(p, 'a', n);
	assert_int_equal(wa_vcard_parse(p, n, &v), WC_ETOOBIG);
	/* too many lines */
	for (i = 0; i + 2 <= 4000; i += 2)
		memcpy(p + i, "x\n", 2);
	assert_int_equal(wa_vcard_parse(p, 4000, &v), WC_ETOOBIG);
	/* a 60 KB name is cut, a 60 KB number dropped, 40 numbers kept
	 * to WA_VCARD_TEL_MAX */
	memcpy(p, "FN:", 3);
	memset(p + 3, 'n', 30000);
	memcpy(p + 30003, "\nTEL:+", 6);
	memset(p + 30009, '1', 30000);
	assert_int_equal(wa_vcard_parse(p, 60009, &v), 0);
	assert_int_equal(strlen(v.name), WA_VCARD_NAME_MAX);
	assert_int_equal(v.ntel, 0);
	free(p);
	p = NULL;
	{
		struct buf	 b = BUF_INIT;

		for (i = 0; i < 40; i++)
			buf_append(&b, "TEL:+1 555\n", 11);
		assert_int_equal(wa_vcard_parse((const char *)b.p, b.len,
		    &v), 0);
		assert_int_equal(v.ntel, WA_VCARD_TEL_MAX);
		buf_release(&b);
	}
	assert_int_equal(wa_vcard_parse(NULL, 0, &v), 0);
	assert_int_equal(wa_vcard_parse(NULL, 3, &v), -EINVAL);
}

/* --- rich records --- */

static void
test_rich__round_trip_escapes(void **state)
{
	struct buf	 b = BUF_INIT;
	struct rich	 r;
	size_t		 from = 0;

	(void)state;
	rich_begin(&b, RICH_CONTACTS);
	rich_add_str(&b, "card", "A\nB\\C=D");
	rich_add_str(&b, "tel", "+1 2");
	rich_add_str(&b, "card", "");
	assert_int_equal(rich_parse((const char *)b.p, b.len, &r), 0);
	assert_int_equal(r.type, RICH_CONTACTS);
	assert_int_equal(r.n, 3);
	assert_string_equal(rich_get(&r, "card", &from), "A\nB\\C=D");
	assert_string_equal(rich_get(&r, "card", &from), "");
	assert_null(rich_get(&r, "card", &from));
	rich_release(&r);
	buf_release(&b);
}

static void
test_rich__not_records(void **state)
{
	struct rich	 r;
	struct buf	 out = BUF_INIT;
	struct buf	 b = BUF_INIT;
	int		 i;

	(void)state;
	assert_int_equal(rich_parse("hello", 5, &r), WC_EPROTO);
	assert_int_equal(rich_parse("location\nnoequals", 17, &r), WC_EPROTO);
	assert_int_equal(r.type, RICH_NONE);
	assert_int_equal(rich_describe("text", 4, true, true, &out),
	    WC_EPROTO);
	assert_int_equal(out.len, 0);
	rich_begin(&b, RICH_OTHER);
	for (i = 0; i <= RICH_KV_MAX; i++)
		rich_add_str(&b, "k", "v");
	assert_int_equal(rich_parse((const char *)b.p, b.len, &r), WC_EPROTO);
	buf_release(&b);
}

static void
test_rich__osm_url(void **state)
{
	char	 u[160];

	(void)state;
	assert_true(rich_osm_url(52.516275, 13.377704, u, sizeof(u)));
	assert_string_equal(u, "https://www.openstreetmap.org/?mlat=52.516275"
	    "&mlon=13.377704#map=16/52.516275/13.377704");
	assert_true(rich_osm_url(-33.5, -70.25, u, sizeof(u)));
	assert_string_equal(u, "https://www.openstreetmap.org/?mlat=-33.500000"
	    "&mlon=-70.250000#map=16/-33.500000/-70.250000");
	assert_false(rich_osm_url(91, 0, u, sizeof(u)));
	assert_string_equal(u, "");
	assert_false(rich_osm_url(0, NAN, u, sizeof(u)));
	assert_false(rich_osm_url(0, 181, u, sizeof(u)));
	assert_false(rich_osm_url(1, 1, u, 20));
}

static char *
words(const char *rec, bool link)
{
	struct buf	 b = BUF_INIT;

	assert_int_equal(rich_describe(rec, strlen(rec), true, link, &b), 0);
	buf_push(&b, '\0');
	return (char *)b.p;
}

static void
test_rich__described_and_sanitised(void **state)
{
	char	*w;

	(void)state;
	w = words("location\nlat=52.516275\nlon=13.377704\nname=Tor\x1b[2J\n"
	    "addr=Pariser Platz", true);
	assert_string_equal(w, "Location: Tor\xef\xbf\xbd[2J\nPariser Platz\n"
	    "52.516275, 13.377704\nhttps://www.openstreetmap.org/?mlat="
	    "52.516275&mlon=13.377704#map=16/52.516275/13.377704");
	free(w);
	/* bad coordinates: no numbers, no link */
	w = words("location\nlat=1e999\nlon=2\nname=X", true);
	assert_string_equal(w, "Location: X");
	free(w);
	w = words("location\nlat=12abc\nlon=2", true);
	assert_string_equal(w, "Location");
	free(w);
	w = words("viewonce\nmedia=ptt", true);
	assert_string_equal(w, "View once voice message");
	free(w);
	w = words("other\nfield=28", true);
	assert_string_equal(w, "An invitation to join a group (wachat "
	    "cannot show it yet)");
	free(w);
	w = words("other\nfield=9999", true);
	assert_string_equal(w, "A kind of message wachat cannot show yet");
	free(w);
	w = words("preview\ntext=see https://e.x\ntitle=T\ndesc=D\x07", true);
	assert_string_equal(w, "see https://e.x\n\xe2\x96\x8e T\n"
	    "\xe2\x96\x8e D\xef\xbf\xbd");
	free(w);
	w = words("contacts\ncard=Ana\ntel=+1 555\nwaid=1555\ncard=Ben\n"
	    "tel=+49 30 1", true);
	assert_string_equal(w, "Contact cards (2):\n\xe2\x80\xa2 Ana\n"
	    "    1. +1 555\n\xe2\x80\xa2 Ben\n    2. +49 30 1");
	free(w);
}

static void
test_rich__card_numbers(void **state)
{
	const char	*rec = "contacts\ncard=Ana\ntel=+1 (555) 0100\n"
			    "waid=15550100\ncard=Ben\ntel=+49 30 1234567\n"
			    "card=Cleo\ntel=x";
	struct rich	 r;
	char		 d[32];

	(void)state;
	assert_int_equal(rich_parse(rec, strlen(rec), &r), 0);
	assert_int_equal(rich_numbers(&r), 3);
	assert_true(rich_number(&r, 1, d, sizeof(d)));
	assert_string_equal(d, "15550100");	/* its waid */
	assert_true(rich_number(&r, 2, d, sizeof(d)));
	assert_string_equal(d, "49301234567");
	assert_false(rich_number(&r, 3, d, sizeof(d)));	/* no digit */
	assert_false(rich_number(&r, 4, d, sizeof(d)));
	assert_false(rich_number(&r, 2, d, 5));		/* too small */
	rich_release(&r);
}

static void
test_rich__largest_contacts_array_parses(void **state)
{
	/* proto/msg-rich.c keeps 32 cards of WA_VCARD_TEL_MAX numbers,
	 * each with a waid: a record rich_parse() still reads */
	struct buf	 b = BUF_INIT, w = BUF_INIT;
	struct rich	 r;
	int		 i, j;

	(void)state;
	rich_begin(&b, RICH_CONTACTS);
	for (i = 0; i < 32; i++) {
		rich_add_str(&b, "card", "Somebody with a long name");
		for (j = 0; j < WA_VCARD_TEL_MAX; j++) {
			rich_add_str(&b, "tel", "+49 151 12345678");
			rich_add_str(&b, "waid", "4915112345678");
		}
	}
	assert_int_equal(rich_parse((const char *)b.p, b.len, &r), 0);
	assert_int_equal(rich_numbers(&r), 32 * WA_VCARD_TEL_MAX);
	rich_release(&r);
	assert_int_equal(rich_describe((const char *)b.p, b.len, true, true,
	    &w), 0);
	assert_non_null(memmem(w.p, w.len, "512. +49", 8));
	buf_release(&w);
	buf_release(&b);
}

/* --- wa_msg_parse() --- */

static void
parse(const Wae2e__Message *m, struct wa_msg_content *c)
{
	size_t	 len = wae2e__message__get_packed_size(m);
	uint8_t	*p = xmalloc(len + 1);

	assert_int_equal(wae2e__message__pack(m, p), len);
	assert_int_equal(wa_msg_parse(p, len, c), 0);
	free(p);
}

static void
test_parse__location_and_live(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__LocationMessage		 l =
	    WAE2E__MESSAGE__LOCATION_MESSAGE__INIT;
	Wae2e__Message__LiveLocationMessage	 ll =
	    WAE2E__MESSAGE__LIVE_LOCATION_MESSAGE__INIT;
	struct wa_msg_content			 c;

	(void)state;
	l.has_degreeslatitude = l.has_degreeslongitude = 1;
	l.degreeslatitude = 52.516275;
	l.degreeslongitude = 13.377704;
	l.name = "Tor";
	l.address = "Platz";
	m.locationmessage = &l;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_RICH);
	assert_int_equal(c.rich_type, RICH_LOCATION);
	assert_string_equal(c.text, "location\nlat=52.516275\nlon=13.377704\n"
	    "name=Tor\naddr=Platz");
	wa_msg_content_release(&c);
	/* out of range: no coordinates */
	l.degreeslatitude = 400;
	parse(&m, &c);
	assert_string_equal(c.text, "location\nname=Tor\naddr=Platz");
	wa_msg_content_release(&c);
	m.locationmessage = NULL;
	ll.has_degreeslatitude = ll.has_degreeslongitude = 1;
	ll.degreeslatitude = 48.1;
	ll.degreeslongitude = 11.5;
	ll.has_sequencenumber = 1;
	ll.sequencenumber = 7;
	ll.caption = "on my way";
	m.livelocationmessage = &ll;
	parse(&m, &c);
	assert_int_equal(c.rich_type, RICH_LIVE);
	assert_int_equal(c.live_seq, 7);
	assert_string_equal(c.text, "live\nlat=48.100000\nlon=11.500000\n"
	    "caption=on my way\nseq=7");
	wa_msg_content_release(&c);
}

static void
test_parse__contacts_one_and_several(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ContactMessage		 a =
	    WAE2E__MESSAGE__CONTACT_MESSAGE__INIT, b =
	    WAE2E__MESSAGE__CONTACT_MESSAGE__INIT;
	Wae2e__Message__ContactMessage		*v[2] = { &a, &b };
	Wae2e__Message__ContactsArrayMessage	 arr =
	    WAE2E__MESSAGE__CONTACTS_ARRAY_MESSAGE__INIT;
	struct wa_msg_content			 c;

	(void)state;
	a.displayname = "A";
	a.vcard = "BEGIN:VCARD\nFN:Ana\nTEL;waid=15550100:+1 555 0100\n"
	    "END:VCARD";
	b.displayname = "Bee";	/* a broken card: its displayName */
	b.vcard = "garbage";
	m.contactmessage = &a;
	parse(&m, &c);
	assert_int_equal(c.rich_type, RICH_CONTACTS);
	assert_string_equal(c.text, "contacts\ncard=Ana\ntel=+1 555 0100\n"
	    "waid=15550100");
	wa_msg_content_release(&c);
	m.contactmessage = NULL;
	arr.n_contacts = 2;
	arr.contacts = v;
	m.contactsarraymessage = &arr;
	parse(&m, &c);
	assert_string_equal(c.text, "contacts\ncard=Ana\ntel=+1 555 0100\n"
	    "waid=15550100\ncard=Bee");
	wa_msg_content_release(&c);
}

static void
test_parse__preview_and_plain_extended_text(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ExtendedTextMessage	 x =
	    WAE2E__MESSAGE__EXTENDED_TEXT_MESSAGE__INIT;
	uint8_t					 jpeg[4] = { 0xff, 0xd8,
						    0xff, 0xd9 };
	struct wa_msg_content			 c;

	(void)state;
	x.text = "see https://e.x";
	m.extendedtextmessage = &x;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_TEXT);	/* no preview: text */
	wa_msg_content_release(&c);
	x.matchedtext = "https://e.x";
	x.title = "Title";
	x.description = "Desc\nline";
	x.has_jpegthumbnail = 1;
	x.jpegthumbnail.data = jpeg;
	x.jpegthumbnail.len = sizeof(jpeg);
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_RICH);
	assert_int_equal(c.rich_type, RICH_PREVIEW);
	assert_string_equal(c.text, "preview\ntext=see https://e.x\n"
	    "url=https://e.x\ntitle=Title\ndesc=Desc\\nline\n"
	    "thumb=ffd8ffd9");
	wa_msg_content_release(&c);
}

static void
test_parse__view_once_wrapper_and_flag(void **state)
{
	Wae2e__Message				 outer = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__FutureProofMessage	 fp =
	    WAE2E__MESSAGE__FUTURE_PROOF_MESSAGE__INIT;
	Wae2e__Message__ImageMessage		 im =
	    WAE2E__MESSAGE__IMAGE_MESSAGE__INIT;
	Wae2e__Message__AudioMessage		 au =
	    WAE2E__MESSAGE__AUDIO_MESSAGE__INIT;
	struct wa_msg_content			 c;

	(void)state;
	im.caption = "secret";
	im.directpath = "/v/t62/x";
	m.imagemessage = &im;
	fp.message = &m;
	outer.viewoncemessagev2 = &fp;
	parse(&outer, &c);
	assert_int_equal(c.kind, WA_MSG_RICH);
	assert_int_equal(c.rich_type, RICH_VIEWONCE);
	assert_string_equal(c.text, "viewonce\nmedia=image");
	/* what opening it once needs, beside the record; not its caption */
	assert_non_null(c.media);
	assert_string_equal(c.media->direct_path, "/v/t62/x");
	assert_null(c.media->caption);
	assert_null(strstr(c.text, "secret"));
	wa_msg_content_release(&c);
	/* the inline flag of a voice note */
	m.imagemessage = NULL;
	au.ptt = 1;
	au.has_ptt = 1;
	au.viewonce = 1;
	au.has_viewonce = 1;
	m.audiomessage = &au;
	parse(&m, &c);
	assert_string_equal(c.text, "viewonce\nmedia=ptt");
	wa_msg_content_release(&c);
	/* the V1 wrapper (37) too */
	outer.viewoncemessagev2 = NULL;
	outer.viewoncemessage = &fp;
	au.has_viewonce = 0;
	au.viewonce = 0;
	parse(&outer, &c);
	assert_string_equal(c.text, "viewonce\nmedia=ptt");
	wa_msg_content_release(&c);
}

static void
test_parse__unknown_kind_named_by_field(void **state)
{
	/* Message{eventMessage(75): {}} */
	const uint8_t	 p[] = { 0xda, 0x04, 0x00 };
	struct wa_msg_content	 c;

	(void)state;
	assert_int_equal(wa_msg_parse(p, sizeof(p), &c), 0);
	assert_int_equal(c.kind, WA_MSG_UNSUPPORTED);
	assert_int_equal(c.unsupported_field, 75);
	wa_msg_content_release(&c);
}

/* Append field f (wire type 2) holding p[0..n) to out. */
static void
ld(struct buf *out, unsigned f, const uint8_t *p, size_t n)
{
	uint64_t	 v = (uint64_t)f << 3 | 2;

	for (int k = 0; k < 2; k++) {
		while (v >= 0x80) {
			buf_push(out, (uint8_t)(v | 0x80));
			v >>= 7;
		}
		buf_push(out, (uint8_t)v);
		v = n;
	}
	buf_append(out, p, n);
}

static void
test_parse__deep_contacts_refused(void **state)
{
	/* Message{contactMessage(4){contextInfo(17){quotedMessage(3){
	 * Message{contactMessage ...}}}}}, 2,000 cards deep: the depth
	 * check refuses it before protobuf-c recurses; 3 deep is read */
	struct buf		 b = BUF_INIT, t = BUF_INIT, u = BUF_INIT;
	struct wa_msg_content	 c;
	int			 i, depth;

	(void)state;
	for (depth = 3; depth <= 2000; depth += 1997) {
		b.len = 0;
		ld(&b, 1, (const uint8_t *)"FN", 2);	/* the innermost card */
		t.len = 0;
		ld(&t, 4, b.p, b.len);
		for (i = 1; i < depth; i++) {
			u.len = 0;
			ld(&u, 3, t.p, t.len);		/* quotedMessage */
			b.len = 0;
			ld(&b, 17, u.p, u.len);		/* contextInfo */
			t.len = 0;
			ld(&t, 4, b.p, b.len);		/* contactMessage */
		}
		if (depth == 3) {
			assert_int_equal(wa_msg_parse(t.p, t.len, &c), 0);
			assert_int_equal(c.rich_type, RICH_CONTACTS);
			assert_string_equal(c.text, "contacts\ncard=");
			wa_msg_content_release(&c);
		} else
			assert_int_equal(wa_msg_parse(t.p, t.len, &c),
			    WC_EDEPTH);
	}
	buf_release(&b);
	buf_release(&t);
	buf_release(&u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vcard__baileys_card),
		cmocka_unit_test(test_vcard__folding_escapes_groups_crlf),
		cmocka_unit_test(test_vcard__n_when_no_fn_and_bad_waid),
		cmocka_unit_test(test_vcard__controls_become_spaces),
		cmocka_unit_test(test_vcard__nested_card_skipped_deep_refused),
		cmocka_unit_test(test_vcard__huge_and_long_fields),
		cmocka_unit_test(test_rich__round_trip_escapes),
		cmocka_unit_test(test_rich__not_records),
		cmocka_unit_test(test_rich__osm_url),
		cmocka_unit_test(test_rich__described_and_sanitised),
		cmocka_unit_test(test_rich__card_numbers),
		cmocka_unit_test(test_rich__largest_contacts_array_parses),
		cmocka_unit_test(test_parse__location_and_live),
		cmocka_unit_test(test_parse__contacts_one_and_several),
		cmocka_unit_test(test_parse__preview_and_plain_extended_text),
		cmocka_unit_test(test_parse__view_once_wrapper_and_flag),
		cmocka_unit_test(test_parse__unknown_kind_named_by_field),
		cmocka_unit_test(test_parse__deep_contacts_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
