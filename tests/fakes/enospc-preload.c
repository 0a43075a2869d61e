/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/enospc-preload.c -- a full disk from outside, for tests: an
 * LD_PRELOAD library whose write(), pwrite(), pwrite64(), writev() and
 * fallocate() fail with ENOSPC while the file named by $ENOSPC_CONTROL
 * exists, for regular files under the directory $ENOSPC_DIR only (the
 * data dir: the terminal, pipes, sockets and the log elsewhere are
 * written as usual).  Remove the control file and writes succeed again.
 * Without both variables it changes nothing.  Under ASan, run the
 * preloaded program with ASAN_OPTIONS=verify_asan_link_order=0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

typedef ssize_t	(*write_fn)(int, const void *, size_t);
typedef ssize_t	(*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t	(*writev_fn)(int, const struct iovec *, int);
typedef int	(*fallocate_fn)(int, int, off_t, off_t);
typedef int	(*pfallocate_fn)(int, off_t, off_t);

/* Is fd a regular file under $ENOSPC_DIR while $ENOSPC_CONTROL exists? */
static int
full(int fd)
{
	const char	*ctl = getenv("ENOSPC_CONTROL");
	const char	*dir = getenv("ENOSPC_DIR");
	char		 link[64], path[4096];
	struct stat	 st;
	size_t		 dlen;
	ssize_t		 n;

	if (ctl == NULL || dir == NULL || dir[0] == '\0' ||
	    access(ctl, F_OK) != 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) <= 0)
		return 0;
	path[n] = '\0';
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	return strncmp(path, dir, dlen) == 0 && (path[dlen] == '/' ||
	    path[dlen] == '\0');
}

static void *
next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

ssize_t
write(int fd, const void *p, size_t len)
{
	static write_fn	 real;

	if (len > 0 && full(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (real == NULL)
		real = (write_fn)next("write");
	return real(fd, p, len);
}

ssize_t
pwrite(int fd, const void *p, size_t len, off_t off)
{
	static pwrite_fn real;

	if (len > 0 && full(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (real == NULL)
		real = (pwrite_fn)next("pwrite");
	return real(fd, p, len, off);
}

ssize_t
pwrite64(int fd, const void *p, size_t len, off_t off)
{
	static pwrite_fn real;

	if (len > 0 && full(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (real == NULL)
		real = (pwrite_fn)next("pwrite64");
	return real(fd, p, len, off);
}

ssize_t
writev(int fd, const struct iovec *iov, int n)
{
	static writev_fn real;

	if (n > 0 && full(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (real == NULL)
		real = (writev_fn)next("writev");
	return real(fd, iov, n);
}

int
fallocate(int fd, int mode, off_t off, off_t len)
{
	static fallocate_fn real;

	if (full(fd)) {
		errno = ENOSPC;
		return -1;
	}
	if (real == NULL)
		real = (fallocate_fn)next("fallocate");
	return real(fd, mode, off, len);
}

int
posix_fallocate(int fd, off_t off, off_t len)
{
	static pfallocate_fn real;

	if (full(fd))
		return ENOSPC;
	if (real == NULL)
		real = (pfallocate_fn)next("posix_fallocate");
	return real(fd, off, len);
}
