/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/keys.h -- the simulator's randomness and its libsignal-protocol-c
 * context: a crypto provider on OpenSSL, and the Signal key material of a
 * simulated primary phone (identity, signed prekey, one-time prekeys) made
 * with libsignal's key_helper.  Loop thread only.
 */
#ifndef SIM_KEYS_H
#define SIM_KEYS_H

#include <stddef.h>
#include <stdint.h>

struct signal_context;

#define SIM_KEY_LEN	32

struct sim_prekey {
	uint32_t	 id;			/* 24-bit prekey id */
	uint8_t		 pub[SIM_KEY_LEN];	/* raw, without 0x05 */
	uint8_t		 priv[SIM_KEY_LEN];
};

/* A primary phone's Signal keys (protocol.md 3.2 and 7.3). */
struct sim_signal_keys {
	uint32_t		 reg_id;	/* 14-bit registration id */
	uint8_t			 ident_pub[SIM_KEY_LEN];
	uint8_t			 ident_priv[SIM_KEY_LEN];
	uint32_t		 spk_id;	/* signed prekey id */
	uint8_t			 spk_pub[SIM_KEY_LEN];
	uint8_t			 spk_priv[SIM_KEY_LEN];
	uint8_t			 spk_sig[64];	/* by ident over 05 ‖ spk_pub */
	struct sim_prekey	*prekeys;	/* nprekeys one-time prekeys */
	size_t			 nprekeys;
};

/* Fill p[0..len) from the system CSPRNG; aborts if it fails. */
void	sim_random(void *p, size_t len);

/* The wa_conn / proto RNG shape: fills p and returns 0. */
int	sim_rng(void *arg, uint8_t *p, size_t len);

/*
 * Make a primary phone's keys with libsignal's key_helper: identity key
 * pair, registration id, signed prekey 1 and nprekeys one-time prekeys
 * starting at id 1.  Returns 0.  Errors: libsignal SG_ERR_* codes.
 */
int	sim_signal_keys_make(struct signal_context *sc, size_t nprekeys,
	    struct sim_signal_keys *out);

/* Wipe and free the prekeys of k. */
void	sim_signal_keys_release(struct sim_signal_keys *k);

/* Lower-case hex of p[0..len) into out (2 * len + 1 bytes). */
void	sim_hex(const uint8_t *p, size_t len, char *out);

/*
 * Parse exactly len bytes of hex from s (upper or lower case; s must hold
 * 2 * len digits and nothing else).  Returns 0, or -1 on bad input.
 */
int	sim_unhex(const char *s, uint8_t *out, size_t len);

#endif
