/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/loopback.h -- for the unit tests that run a small HTTP server in
 * a thread of their own (tests/test-wa-media-dl.c,
 * tests/test-wa-media-get.c): a TCP socket listening on 127.0.0.1 on a
 * free port.
 */
#ifndef WC_TESTS_LOOPBACK_H
#define WC_TESTS_LOOPBACK_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The listening socket (backlog connections) and its port in *port, or
 * -1. */
static inline int
loopback_listen(int backlog, int *port)
{
	struct sockaddr_in	 sa;
	socklen_t		 sl = sizeof(sa);
	int			 fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fd, backlog) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
		close(fd);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

#endif
