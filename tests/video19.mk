# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, videos: a video's duration, size and first-frame thumbnail by
# FFmpeg's libraries (proto/media-video.c) on files ffmpeg makes here.
check_PROGRAMS += tests/test-wa-media-video
tests_test_wa_media_video_SOURCES = tests/test-wa-media-video.c
tests_test_wa_media_video_CFLAGS = $(TEST_CFLAGS) $(JPEG_CFLAGS)
tests_test_wa_media_video_LDADD = $(TEST_LIBS) $(MEDIA_PROBE_LIBS)
TESTS += tests/test-wa-media-video
# A received video, GIF, round video and animated sticker in a real
# terminal: their words, durations, dimensions and thumbnails; the video
# downloaded to the same bytes (tests/video19-recv-tmux.sh).
TESTS += tests/video19-recv-tmux.sh
EXTRA_DIST += tests/video19-recv-tmux.sh
