/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ui-media.c -- media rows as the screen shows them (ui/media.c,
 * base/media-text.c, ui/msgs.c): the words, sizes, durations and icons in
 * a UTF-8 locale and ASCII ones in another, network text sanitised, the
 * chat list's preview, and a media row in the pane that keeps its media
 * line when its caption is edited.
 */
#include "base/compat.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/event.h"
#include "base/media-text.h"
#include "ui/media.h"
#include "ui/msgs.h"

#define BOB	"15550000003@s.whatsapp.net"

static bool
utf8(void)
{
	return setlocale(LC_CTYPE, "C.UTF-8") != NULL;
}

static void
test_media_size_and_duration(void **state)
{
	char	 t[32];

	(void)state;
	media_size(512, t, sizeof(t));
	assert_string_equal(t, "512 B");
	media_size(20480, t, sizeof(t));
	assert_string_equal(t, "20 KB");
	media_size(2500000, t, sizeof(t));
	assert_string_equal(t, "2.5 MB");
	media_size(3400000000LL, t, sizeof(t));
	assert_string_equal(t, "3.4 GB");
	media_size(-1, t, sizeof(t));
	assert_string_equal(t, "0 B");
	media_duration(12, t, sizeof(t));
	assert_string_equal(t, "0:12");
	media_duration(184, t, sizeof(t));
	assert_string_equal(t, "3:04");
	media_duration(3723, t, sizeof(t));
	assert_string_equal(t, "1:02:03");
}

static void
test_ui_media_text__utf8_ascii_and_sanitised(void **state)
{
	static char	 E[] = "", NAME[] = "re\x1b[2Jport.pdf";
	static char	 CAP[] = "line 1\nline\x07 2", PATH[] = "/tmp/report.pdf";
	struct ev_media	 m;
	char		*s;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = EV_MEDIA_AUDIO;
	m.seconds = 184;
	m.size = 4100000;
	m.mimetype = m.caption = m.path = m.file_name = E;
	assert_true(utf8());
	s = ui_media_text(&m, true);
	assert_string_equal(s, "\xf0\x9f\x8e\xb5 Audio 3:04 \xc2\xb7 4.1 MB");
	free(s);
	/* a document: name, pages; its caption and path sanitised */
	m.type = EV_MEDIA_DOCUMENT;
	m.size = 2500000;
	m.pages = 1;
	m.file_name = NAME;
	m.caption = CAP;
	m.dl_state = EV_DL_DONE;
	m.path = PATH;
	s = ui_media_text(&m, true);
	assert_null(strchr(s, 0x1b));
	assert_null(strchr(s, 0x07));
	assert_non_null(strstr(s, "Document re"));
	assert_non_null(strstr(s, "port.pdf \xc2\xb7 2.5 MB \xc2\xb7 1 page\n"
	    "/tmp/report.pdf\nline 1\nline"));
	free(s);
	/* not UTF-8: ASCII icon and separators */
	assert_non_null(setlocale(LC_CTYPE, "C"));
	memset(&m, 0, sizeof(m));
	m.type = EV_MEDIA_IMAGE;
	m.size = 123456;
	m.width = 1600;
	m.height = 1200;
	m.mimetype = m.caption = m.path = m.file_name = E;
	s = ui_media_text(&m, true);
	assert_string_equal(s, "[IMG] Photo - 123 KB - 1600x1200");
	free(s);
	m.type = EV_MEDIA_STICKER;
	m.animated = true;
	m.size = 0;
	s = ui_media_text(&m, true);
	assert_string_equal(s, "[STK] Animated sticker - 1600x1200");
	free(s);
	s = ui_media_preview(EV_MEDIA_DOCUMENT, "report.pdf\nfor Monday");
	assert_string_equal(s, "[DOC] Document report.pdf");
	free(s);
}

static void
test_ui_msgs__media_row_keeps_its_line_when_its_caption_is_edited(
    void **state)
{
	struct ui_msgs	 m;
	struct ev	*ev;
	struct ev_media	*md;
	int		 i;

	(void)state;
	assert_true(utf8());
	ui_msgs_init(&m);
	cmd_free(ui_msgs_open(&m, BOB));
	ev = ev_new(EV_PAGE);		/* the chat's page: empty */
	ev_set(&ev->u.page.chat, BOB);
	ev->u.page.dir = EV_PAGE_NEWEST;
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	ev = ev_new(EV_MESSAGE);
	ev_set(&ev->u.message.key.chat, BOB);
	ev_set(&ev->u.message.key.id, "IMG1");
	ev_set(&ev->u.message.key.sender, BOB);
	ev_set(&ev->u.message.text, "the beach");
	ev->u.message.ts_ms = 1000;
	md = &ev->u.message.media;
	md->type = EV_MEDIA_IMAGE;
	md->size = 123456;
	md->width = 1600;
	md->height = 1200;
	ev_set(&md->caption, "the beach");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	i = ui_msgs_find(&m, "IMG1");
	assert_true(i >= 0);
	assert_string_equal(m.v[i].text, "\xf0\x9f\x93\xb7 Photo \xc2\xb7 "
	    "123 KB \xc2\xb7 1600\xc3\x97" "1200\nthe beach");
	ev = ev_new(EV_MSG_CHANGED);
	ev_set(&ev->u.msg_changed.key.chat, BOB);
	ev_set(&ev->u.msg_changed.key.id, "IMG1");
	ev_set(&ev->u.msg_changed.text, "the \x1b" "beach at noon");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_true(m.v[i].edited);
	assert_non_null(strstr(m.v[i].text, "\xf0\x9f\x93\xb7 Photo \xc2\xb7 "
	    "123 KB"));
	assert_non_null(strstr(m.v[i].text, "\nthe "));
	assert_non_null(strstr(m.v[i].text, "beach at noon"));
	assert_null(strchr(m.v[i].text, 0x1b));
	ui_msgs_release(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_media_size_and_duration),
		cmocka_unit_test(test_ui_media_text__utf8_ascii_and_sanitised),
		cmocka_unit_test(test_ui_msgs__media_row_keeps_its_line_when_its_caption_is_edited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
