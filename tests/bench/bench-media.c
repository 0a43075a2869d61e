/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-media.c -- benches media_encrypt_100M and
 * media_decrypt_100M (issue 19): a 100 MB file streamed through the whole
 * send or receive path without the network, with every hash and the MAC:
 *
 *   send:    plaintext file -> wa_media_seal_file (proto/media-seal.c:
 *            read 256 KiB -> wa_media_enc_update -> temp file -> tail,
 *            fsync; the upload body, with fileSha256, fileEncSha256)
 *   receive: that blob file -> wa_media_dl_fd (read 256 KiB ->
 *            wa_media_dec_update -> temp file -> the checks, fsync,
 *            rename), as a download writes it
 *
 *   bench-media [-m MB] [-s SAMPLES] [-d DIR]   (100 MB, 5 samples: medians)
 *
 * Each is timed against the same run's floor: the same file read in the
 * same chunks through OpenSSL AES-256-CBC (encrypt or decrypt, no
 * padding), HMAC-SHA256 and one SHA-256 in one pass (64 KiB slices),
 * nothing written.  The format needs a second SHA-256 (fileSha256 and
 * fileEncSha256 are both over the whole file) that the floor leaves
 * out; "floor2_ratio" is against a floor with both.  "ratio" =
 * floor_ns / path_ns at the medians (>= 0.8 is the bar).  "rss_growth_kb"
 * is the peak RSS (VmHWM, reset through /proc/self/clear_refs before each
 * path) minus the RSS before it: the bar is 8 MB.  Files go in --dir
 * (default $TMPDIR or /tmp) and are removed.  One JSON line per bench on
 * stdout.
 *
 * Cores: the floor is one pass on one core.  The path runs the two
 * SHA-256s on a second thread (proto/media-pipe.h) while the cipher, the
 * MAC and the file I/O run on the caller's: on two cores it can match a
 * one-core pass that does one SHA-256 fewer; pinned to one core it
 * cannot ("path_threads" says how many threads the path uses; run-media.sh
 * lets it have two cores and says so).
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "base/err.h"
#include "proto/crypto.h"
#include "proto/media-dl.h"
#include "proto/media-seal.h"
#include "proto/media-stream.h"
#include "proto/media.h"

#define CHUNK	(256 * 1024)
#define SLICE	(64 * 1024)
#define MAX_SAMPLES 15

static uint8_t	 key[32];

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A field of /proc/self/status in kB ("VmHWM", "VmRSS"). */
static long
status_kb(const char *field)
{
	char	 line[256];
	FILE	*f = fopen("/proc/self/status", "r");
	long	 v = -1;
	size_t	 n = strlen(field);

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, field, n) == 0 && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/* Reset VmHWM to the current RSS (Linux 4.0 and later). */
static bool
reset_peak(void)
{
	FILE	*f = fopen("/proc/self/clear_refs", "w");
	bool	 ok;

	if (f == NULL)
		return false;
	ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok;
}

static void
die(const char *what, int rc)
{
	fprintf(stderr, "bench-media: %s: %s\n", what, rc < 0 && rc > -4096 ?
	    strerror(-rc) : wc_strerror(rc));
	exit(1);
}

static void
make_plain(const char *path, uint64_t len)
{
	uint64_t	 x = 0x9E3779B97F4A7C15ull, i, off;
	uint8_t		*b = malloc(CHUNK);
	FILE		*f = fopen(path, "wb");
	size_t		 n;

	if (b == NULL || f == NULL)
		die("cannot create the plaintext", -errno);
	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? (size_t)(len - off) : CHUNK;
		for (i = 0; i + 8 <= n; i += 8) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(b + i, &x, 8);
		}
		if (fwrite(b, 1, n, f) != n)
			die("cannot write the plaintext", -EIO);
	}
	if (fclose(f) != 0)
		die("cannot write the plaintext", -errno);
	free(b);
}

/* The send path: plain -> a new blob in dir (its path into blob), the
 * hashes into *r: proto/media-seal.c, as the send path calls it. */
static void
send_path(const char *plain, const char *dir, char blob[WA_MEDIA_SEAL_PATH_MAX],
    struct wa_media_enc_result *r)
{
	int	 rc;

	if ((rc = wa_media_seal_file(plain, dir, WA_MEDIA_VIDEO, key, blob,
	    r)) != 0)
		die("seal", rc);
}

static void
recv_path(const char *blob, const char *dir, const char *final,
    const struct wa_media_enc_result *r)
{
	struct wa_media_dl_req	 q;
	const char		*why = NULL;
	int			 fd, rc;

	memset(&q, 0, sizeof(q));
	q.dir = dir;
	q.final_path = final;
	q.media_key = key;
	q.info = WA_MEDIA_INFO_VIDEO;
	q.file_enc_sha256 = r->file_enc_sha256;
	q.file_sha256 = r->file_sha256;
	q.file_len = r->file_len;
	q.max_len = r->file_len;
	if ((fd = open(blob, O_RDONLY)) < 0)
		die("open", -errno);
	if ((rc = wa_media_dl_fd(fd, &q, &why)) != 0) {
		fprintf(stderr, "bench-media: %s\n", why != NULL ? why : "");
		die("decrypt", rc);
	}
	close(fd);
}

/* The floor: read path in CHUNKs, AES-256-CBC + HMAC-SHA256 + SHA-256
 * (two SHA-256s when two) over each 64 KiB slice, nothing written. */
static void
floor_pass(const char *path, bool encrypt, bool two)
{
	EVP_CIPHER_CTX	*c = EVP_CIPHER_CTX_new();
	EVP_MD_CTX	*s1 = EVP_MD_CTX_new(), *s2 = EVP_MD_CTX_new();
	EVP_MAC		*mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX	*m = EVP_MAC_CTX_new(mac);
	OSSL_PARAM	 p[2];
	uint8_t		*in = malloc(CHUNK), *out = malloc(CHUNK), h[64];
	uint8_t		 iv[16] = { 0 };
	unsigned int	 hl;
	size_t		 ml, off, step, n0;
	ssize_t		 n;
	int		 fd, w;

	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
	    (char *)"SHA256", 0);
	p[1] = OSSL_PARAM_construct_end();
	if ((fd = open(path, O_RDONLY)) < 0)
		die("open", -errno);
	if (EVP_CipherInit_ex(c, EVP_aes_256_cbc(), NULL, key, iv,
	    encrypt) != 1 || EVP_CIPHER_CTX_set_padding(c, 0) != 1 ||
	    EVP_MAC_init(m, key, 32, p) != 1 ||
	    EVP_DigestInit_ex(s1, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestInit_ex(s2, EVP_sha256(), NULL) != 1)
		die("floor", WC_ECRYPTO);
	while ((n = read(fd, in, CHUNK)) > 0) {
		n0 = (size_t)n / 16 * 16;
		for (off = 0; off < n0; off += step) {
			step = n0 - off < SLICE ? n0 - off : SLICE;
			EVP_CipherUpdate(c, out + off, &w, in + off, (int)step);
			EVP_MAC_update(m, encrypt ? out + off : in + off,
			    step);
			EVP_DigestUpdate(s1, in + off, step);
			if (two)
				EVP_DigestUpdate(s2, out + off, step);
		}
	}
	EVP_MAC_final(m, h, &ml, sizeof(h));
	EVP_DigestFinal_ex(s1, h, &hl);
	EVP_DigestFinal_ex(s2, h, &hl);
	close(fd);
	EVP_CIPHER_CTX_free(c);
	EVP_MD_CTX_free(s1);
	EVP_MD_CTX_free(s2);
	EVP_MAC_CTX_free(m);
	EVP_MAC_free(mac);
	free(in);
	free(out);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median(uint64_t *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), cmp_u64);
	return t[n / 2];
}

static void
report(const char *name, uint64_t bytes, uint64_t path_ns, uint64_t fl_ns,
    uint64_t fl2_ns, long rss_kb, int samples)
{
	printf("{\"name\":\"%s\",\"bytes\":%llu,\"median_ns\":%llu,"
	    "\"floor_ns\":%llu,\"floor2_ns\":%llu,\"mb_s\":%.1f,"
	    "\"floor_mb_s\":%.1f,\"ratio\":%.3f,\"floor2_ratio\":%.3f,"
	    "\"rss_growth_kb\":%ld,\"path_threads\":2,\"samples\":%d}\n", name,
	    (unsigned long long)bytes, (unsigned long long)path_ns,
	    (unsigned long long)fl_ns, (unsigned long long)fl2_ns,
	    bytes / (path_ns / 1e9) / 1e6, bytes / (fl_ns / 1e9) / 1e6,
	    (double)fl_ns / (double)path_ns, (double)fl2_ns / (double)path_ns,
	    rss_kb, samples);
	fprintf(stderr, "bench-media: %s: %.0f MB/s, floor %.0f MB/s, ratio "
	    "%.3f (with both SHA-256s in the floor %.3f), peak RSS growth "
	    "%ld kB\n", name, bytes / (path_ns / 1e9) / 1e6,
	    bytes / (fl_ns / 1e9) / 1e6, (double)fl_ns / (double)path_ns,
	    (double)fl2_ns / (double)path_ns, rss_kb);
}

int
main(int argc, char **argv)
{
	struct wa_media_enc_result	 r;
	uint64_t			 te[MAX_SAMPLES], td[MAX_SAMPLES];
	uint64_t			 fe[MAX_SAMPLES], fd[MAX_SAMPLES];
	uint64_t			 fe2[MAX_SAMPLES], fd2[MAX_SAMPLES];
	uint64_t			 t0, len;
	const char			*dir = getenv("TMPDIR");
	char				 plain[512], final[512];
	char				 blob[WA_MEDIA_SEAL_PATH_MAX];
	char				 work[256];
	long				 rss0, rss_e = 0, rss_d = 0, g;
	int				 mb = 100, samples = 5, i, c;

	while ((c = getopt(argc, argv, "m:s:d:")) != -1) {
		switch (c) {
		case 'm':
			mb = (int)strtol(optarg, NULL, 10);
			break;
		case 's':
			samples = (int)strtol(optarg, NULL, 10);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: bench-media [-m MB] [-s "
			    "SAMPLES] [-d DIR]\n");
			return 2;
		}
	}
	if (samples < 1 || samples > MAX_SAMPLES || mb < 1)
		return 2;
	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	if (wa_crypto_init() != 0)
		return 1;
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i * 5 + 3);
	if (strlen(dir) > 200)
		die("--dir is too long", -ENAMETOOLONG);
	snprintf(work, sizeof(work), "%s/wachat-bench-media.XXXXXX", dir);
	if (mkdtemp(work) == NULL)
		die("mkdtemp", -errno);
	snprintf(plain, sizeof(plain), "%s/plain", work);
	snprintf(final, sizeof(final), "%s/final", work);
	len = (uint64_t)mb * 1000 * 1000;
	make_plain(plain, len);
	for (i = 0; i < samples; i++) {
		floor_pass(plain, true, false);	/* warm the page cache */
		t0 = now_ns();
		floor_pass(plain, true, false);
		fe[i] = now_ns() - t0;
		t0 = now_ns();
		floor_pass(plain, true, true);
		fe2[i] = now_ns() - t0;
		rss0 = status_kb("VmRSS");
		reset_peak();
		t0 = now_ns();
		send_path(plain, work, blob, &r);
		te[i] = now_ns() - t0;
		g = status_kb("VmHWM") - rss0;
		rss_e = g > rss_e ? g : rss_e;

		t0 = now_ns();
		floor_pass(blob, false, false);
		fd[i] = now_ns() - t0;
		t0 = now_ns();
		floor_pass(blob, false, true);
		fd2[i] = now_ns() - t0;
		rss0 = status_kb("VmRSS");
		reset_peak();
		t0 = now_ns();
		recv_path(blob, work, final, &r);
		td[i] = now_ns() - t0;
		g = status_kb("VmHWM") - rss0;
		rss_d = g > rss_d ? g : rss_d;
		if (r.file_len != len)
			die("length", WC_EPROTO);
		unlink(final);
		unlink(blob);
	}
	report("media_encrypt_100M", len, median(te, samples),
	    median(fe, samples), median(fe2, samples), rss_e, samples);
	report("media_decrypt_100M", r.blob_len, median(td, samples),
	    median(fd, samples), median(fd2, samples), rss_d, samples);
	unlink(plain);
	rmdir(work);
	return 0;
}
