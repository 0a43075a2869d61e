/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/replay.c -- run a fuzz target over every file of its corpus
 * without libFuzzer, as `make check` does.  Usage: replay-NAME PATH...
 * (files or directories).  Prints TAP: one line per corpus path.
 */
#include "base/compat.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *path)
{
	FILE	*f = fopen(path, "rb");
	uint8_t	*p;
	long	 len;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		if (f != NULL)
			fclose(f);
		return -1;
	}
	p = xmalloc((size_t)len);
	if (fread(p, 1, (size_t)len, f) != (size_t)len) {
		free(p);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(p, (size_t)len);
	free(p);
	return 0;
}

/* Run every regular file under path; return the count, or -1. */
static long
run_path(const char *path)
{
	struct stat	 st;
	struct dirent	*e;
	DIR		*d;
	long		 n = 0, k;
	char		 sub[4096];

	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return run_file(path) == 0 ? 1 : -1;
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if ((k = run_path(sub)) < 0) {
			closedir(d);
			return -1;
		}
		n += k;
	}
	closedir(d);
	return n;
}

int
main(int argc, char **argv)
{
	int	 i, failed = 0;
	long	 n;

	printf("1..%d\n", argc - 1);
	for (i = 1; i < argc; i++) {
		n = run_path(argv[i]);
		if (n <= 0) {
			printf("not ok %d - %s: no input replayed\n", i, argv[i]);
			failed++;
		} else
			printf("ok %d - %s: %ld inputs replayed\n", i, argv[i], n);
	}
	return failed != 0;
}
