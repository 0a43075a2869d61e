/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/log.c -- line logger, one write(2) per line under a mutex. */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/sanitize.h"

static struct {
	pthread_mutex_t	 lock;
	int		 fd;		/* -1: stderr */
	enum log_level	 level;
} logger = { PTHREAD_MUTEX_INITIALIZER, -1, LOG_INFO };

int
log_open(const char *path, enum log_level level)
{
	int	 fd = -1;

	if (path != NULL &&
	    (fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600)) < 0)
		return -errno;
	pthread_mutex_lock(&logger.lock);
	if (logger.fd >= 0)
		close(logger.fd);
	logger.fd = fd;
	logger.level = level;
	pthread_mutex_unlock(&logger.lock);
	return 0;
}

void
log_close(void)
{
	pthread_mutex_lock(&logger.lock);
	if (logger.fd >= 0)
		close(logger.fd);
	logger.fd = -1;
	pthread_mutex_unlock(&logger.lock);
}

void
log_write(enum log_level level, const char *tag, const char *func,
    const char *fmt, ...)
{
	static const char *const names[] = { "ERROR", "WARN", "INFO", "DEBUG" };
	char		 line[2048];
	struct timeval	 tv;
	struct tm	 tm;
	va_list		 ap;
	struct buf	 safe = BUF_INIT;
	size_t		 n;
	int		 k;

	if (level > logger.level)
		return;
	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	k = snprintf(line, sizeof(line),
	    "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ %s %s %s: ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, (int)(tv.tv_usec / 1000), names[level], tag,
	    func);
	n = k > 0 ? (size_t)k : 0;
	if (n < sizeof(line)) {
		va_start(ap, fmt);
		k = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		va_end(ap);
		n += k > 0 ? (size_t)k : 0;
	}
	if (n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	/* A log line may carry strings from the network (ids, reasons):
	 * one line, inert in a terminal that shows the log (base/sanitize.h;
	 * reliability.md).  A cut UTF-8 sequence at the end becomes U+FFFD. */
	safe.len = 0;
	wc_sanitize(line, n, false, &safe);
	safe.p[safe.len - 1] = '\n';	/* the NUL wc_sanitize() ends with */
	pthread_mutex_lock(&logger.lock);
	(void)!write(logger.fd >= 0 ? logger.fd : STDERR_FILENO, safe.p,
	    safe.len);
	pthread_mutex_unlock(&logger.lock);
	buf_release(&safe);
}
