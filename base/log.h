/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/log.h -- the logger, the one piece of mutable global state: one
 * line per write(2) under a mutex, so callable from any thread.  Lines go
 * to the file set by log_open() (stderr until then) as
 *   2026-11-30T02:14:37.123Z LEVEL tag func: message
 * Never log keys, message text or full phone numbers (style.md 3.5).
 */
#ifndef WC_LOG_H
#define WC_LOG_H

enum log_level {
	LOG_ERROR,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
};

/*
 * Send lines to path (appended, created 0600), keeping those at level or
 * more severe.  path NULL keeps stderr.  Returns 0 or a negated errno.
 * Call before starting threads.
 */
int	log_open(const char *path, enum log_level level);

/* Close the log file; lines go to stderr again. */
void	log_close(void);

/* Write one line.  Use the macros below. */
void	log_write(enum log_level level, const char *tag, const char *func,
	    const char *fmt, ...) PRINTFLIKE(4, 5);

#ifndef LOG_TAG
#define LOG_TAG	"wachat"
#endif

#define log_error(...)	log_write(LOG_ERROR, LOG_TAG, __func__, __VA_ARGS__)
#define log_warn(...)	log_write(LOG_WARN, LOG_TAG, __func__, __VA_ARGS__)
#define log_info(...)	log_write(LOG_INFO, LOG_TAG, __func__, __VA_ARGS__)
#define log_debug(...)	log_write(LOG_DEBUG, LOG_TAG, __func__, __VA_ARGS__)

#endif
