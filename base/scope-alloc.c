/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/scope-alloc.c -- the per-scope bump allocator, and the malloc
 * family that routes to it or to glibc (base/scope-alloc.h; glibc manual,
 * "Replacing malloc": malloc, free, calloc, realloc, plus aligned_alloc,
 * malloc_usable_size, memalign, posix_memalign, pvalloc, valloc;
 * reallocarray too, because glibc's own calls __libc_realloc directly).
 * Only libc is called from here: nothing of base/ above it (xmalloc,
 * arena), which allocate through it.
 *
 * Layout: one reserved mapping [base, end) cut into chunks; a chunk starts
 * with struct chunk (CHUNK_HDR bytes, the head canary last), then the
 * data: blocks, each a 16-byte header (the size asked for) and the
 * payload, rounded up to 16 bytes; the chunk ends with the tail canary
 * (TAIL bytes).  Whether a pointer is a scope block is a range check,
 * which any thread can make.  The owning thread counts its blocks in
 * chunk->live without atomics; a free from any other thread, or of a
 * block in a retired chunk, adds to chunk->remote atomically.
 */
#include "base/compat.h"

#include "base/scope-alloc.h"

#if !defined(SCOPE_ALLOC_OFF)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SCOPE_ALLOC_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer) || __has_feature(hwaddress_sanitizer)
#define SCOPE_ALLOC_OFF 1
#endif
#endif
#endif

#if defined(SCOPE_ALLOC_OFF)

/* A sanitizer build: the sanitizer's allocator stays in charge. */
bool	 scope_alloc_enter(void) { return false; }
size_t	 scope_alloc_leave(void) { return 0; }
bool	 scope_alloc_pause(void) { return false; }
void	 scope_alloc_resume(bool was_on) { (void)was_on; }
bool	 scope_alloc_owns(const void *p) { (void)p; return false; }
bool	 scope_alloc_check(void) { return true; }
bool	 scope_alloc_built(void) { return false; }

void
scope_alloc_stats(struct scope_alloc_stats *out)
{
	memset(out, 0, sizeof(*out));
}

void
scope_alloc_set_count_hooks(void (*on_alloc)(size_t), void (*on_free)(void))
{
	(void)on_alloc;
	(void)on_free;
}

#else

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* glibc's allocator under names nothing interposes. */
void	*__libc_malloc(size_t);
void	*__libc_calloc(size_t, size_t);
void	*__libc_realloc(void *, size_t);
void	 __libc_free(void *);
void	*__libc_memalign(size_t, size_t);
void	*__libc_valloc(size_t);
void	*__libc_pvalloc(size_t);

#define CHUNK		((size_t)SCOPE_ALLOC_CHUNK)
#define N_CHUNKS	(SCOPE_ALLOC_REGION / SCOPE_ALLOC_CHUNK)
#define CHUNK_HDR	64	/* struct chunk; keeps 16-alignment */
#define TAIL		16	/* the tail canary, twice */
#define BLOCK_HDR	16
#define DATA_MAX	(CHUNK - CHUNK_HDR - TAIL)
#define ROUND16(n)	(((n) + 15) & ~(size_t)15)

struct chunk {
	size_t		 used;		/* bytes of blocks, from the data */
	size_t		 live;		/* blocks given out and not freed by
					 * the owner while current */
	size_t		 remote;	/* atomic: other frees */
	uint64_t	 pad[4];
	uint64_t	 head;		/* SCOPE_ALLOC_CANARY, just before
					 * the data */
};

_Static_assert(sizeof(struct chunk) == CHUNK_HDR, "chunk header size");
_Static_assert(DATA_MAX - BLOCK_HDR == SCOPE_ALLOC_BLOCK_MAX,
    "SCOPE_ALLOC_BLOCK_MAX");

struct tls {
	struct chunk	*c;		/* current chunk, or NULL */
	unsigned	 depth;		/* scopes open, up to 32 */
	unsigned	 over;		/* scopes open beyond 32 */
	uint32_t	 saved;		/* `on` before each nested enter */
	bool		 on;		/* allocate from c */
	uint64_t	 blocks, fallbacks;	/* flushed at leave */
};

static __thread struct tls	 t;

static pthread_once_t	 once = PTHREAD_ONCE_INIT;
static char		*base, *end;	/* the region; NULL: none (yet) */
static bool		 disabled;	/* WACHAT_SIGNAL_ARENA=0, no map,
					 * or malloc is not ours */
static size_t		 next_chunk;	/* atomic */
static uint64_t		 st_scopes, st_blocks, st_fallbacks, st_retired,
			 st_escaped;	/* atomic */

static void		(*hook_alloc)(size_t);
static void		(*hook_free)(void);
static size_t		(*libc_usable)(void *);

static struct chunk	*take_chunk(void);
static inline bool	 in_region(const void *);

static inline char *
data_of(struct chunk *c)
{
	return (char *)c + CHUNK_HDR;
}

/* The tail canary: the TAIL bytes after the data. */
static inline uint64_t *
tail_of(struct chunk *c)
{
	return (uint64_t *)(void *)(data_of(c) + DATA_MAX);
}

static bool
canaries_ok(struct chunk *c)
{
	const uint64_t	*tl = tail_of(c);

	return c->head == SCOPE_ALLOC_CANARY && tl[0] == SCOPE_ALLOC_CANARY &&
	    tl[1] == SCOPE_ALLOC_CANARY;
}

/* A chunk overrun: nothing of it can be trusted any more.  No stdio (it
 * allocates), no logger (base/log.c sits above this file). */
static void
overrun(void)
{
	static const char	 msg[] = "wachat: a scope allocator chunk's "
				    "canary was overwritten (a block "
				    "overrun): aborting\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	abort();
}

/* Release every block of c: poison what they used (which wipes what a
 * scope held there, libsignal's keys) and start over. */
static void
reset(struct chunk *c)
{
	memset(data_of(c), SCOPE_ALLOC_POISON, c->used);
	c->used = c->live = 0;
	__atomic_store_n(&c->remote, 0, __ATOMIC_RELAXED);
}

/*
 * Whether malloc reaches this file: a tool such as valgrind's memcheck
 * replaces the malloc family in the executable too, and then scopes
 * must stay off.  One block asked for with this thread's scope on.
 */
static bool
probe(void)
{
	void	*(*volatile m)(size_t) = malloc;	/* not folded */
	void	 (*volatile f)(void *) = free;
	void	*p;
	bool	 ours;

	if ((t.c = take_chunk()) == NULL)
		return false;
	t.on = true;
	p = m(16);
	t.on = false;
	ours = p != NULL && in_region(p);
	f(p);
	reset(t.c);
	return ours;
}

static void
region_init(void)
{
	const char	*e = getenv("WACHAT_SIGNAL_ARENA");
	void		*p;

	if (e != NULL && strcmp(e, "0") == 0) {
		disabled = true;
		return;
	}
	p = mmap(NULL, SCOPE_ALLOC_REGION, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		disabled = true;
		return;
	}
	__atomic_store_n(&end, (char *)p + SCOPE_ALLOC_REGION,
	    __ATOMIC_RELEASE);
	__atomic_store_n(&base, (char *)p, __ATOMIC_RELEASE);
	if (!probe())
		disabled = true;
}

static inline bool
in_region(const void *p)
{
	const char	*b = __atomic_load_n(&base, __ATOMIC_ACQUIRE);

	return b != NULL && (const char *)p >= b && (const char *)p < end;
}

static inline struct chunk *
chunk_of(const void *p)
{
	size_t	 off = (size_t)((const char *)p - base);

	return (struct chunk *)(void *)(base + off - off % CHUNK);
}

static inline size_t
block_size(const void *p)
{
	return *(const size_t *)(const void *)((const char *)p - BLOCK_HDR);
}

static struct chunk *
take_chunk(void)
{
	size_t		 i = __atomic_fetch_add(&next_chunk, 1, __ATOMIC_RELAXED);
	struct chunk	*c;

	if (i >= N_CHUNKS) {
		__atomic_store_n(&next_chunk, N_CHUNKS, __ATOMIC_RELAXED);
		return NULL;
	}
	c = (struct chunk *)(void *)(base + i * CHUNK);
	c->used = c->live = 0;
	__atomic_store_n(&c->remote, 0, __ATOMIC_RELAXED);
	c->head = tail_of(c)[0] = tail_of(c)[1] = SCOPE_ALLOC_CANARY;
	memset(data_of(c), SCOPE_ALLOC_POISON, DATA_MAX);
	return c;
}

/* A block of n bytes from this thread's chunk, or NULL (off, too big). */
static inline void *
chunk_alloc(size_t n)
{
	struct chunk	*c = t.c;
	size_t		 need;
	char		*b;

	if (n > DATA_MAX - BLOCK_HDR ||
	    (need = BLOCK_HDR + ROUND16(n)) > DATA_MAX - c->used) {
		t.fallbacks++;
		return NULL;
	}
	b = data_of(c) + c->used;
	c->used += need;
	c->live++;
	t.blocks++;
	*(size_t *)(void *)b = n;
	return b + BLOCK_HDR;
}

static inline void
chunk_free(void *p)
{
	struct chunk	*c = chunk_of(p);

	if (c == t.c)
		c->live--;
	else
		__atomic_fetch_add(&c->remote, 1, __ATOMIC_RELAXED);
}

bool
scope_alloc_enter(void)
{
	if (t.depth >= 32) {
		t.over++;	/* deeper nesting keeps the state */
		return t.on;
	}
	t.saved = (t.saved << 1) | (t.on ? 1u : 0u);
	if (t.depth++ > 0 && t.on)
		return true;
	(void)pthread_once(&once, region_init);
	if (disabled)
		return false;
	if (t.c == NULL && (t.c = take_chunk()) == NULL)
		return false;
	if (t.depth == 1)
		__atomic_fetch_add(&st_scopes, 1, __ATOMIC_RELAXED);
	t.on = true;
	return true;
}

size_t
scope_alloc_leave(void)
{
	struct chunk	*c;
	size_t		 live;

	if (t.over > 0) {
		t.over--;
		return 0;
	}
	if (t.depth == 0)
		return 0;
	t.depth--;
	t.on = (t.saved & 1u) != 0;
	t.saved >>= 1;
	if (t.depth > 0)
		return 0;
	t.on = false;
	if (t.blocks != 0 || t.fallbacks != 0) {
		__atomic_fetch_add(&st_blocks, t.blocks, __ATOMIC_RELAXED);
		__atomic_fetch_add(&st_fallbacks, t.fallbacks,
		    __ATOMIC_RELAXED);
		t.blocks = t.fallbacks = 0;
	}
	if ((c = t.c) == NULL)
		return 0;
	if (!canaries_ok(c))
		overrun();
	live = c->live - __atomic_load_n(&c->remote, __ATOMIC_RELAXED);
	if (live == 0) {
		/* Nothing points into the chunk: start over. */
		reset(c);
		return 0;
	}
	/* Blocks outlive the scope: keep the chunk as it is, for good.  A
	 * later free of one of them counts in c->remote (c is no longer
	 * any thread's current chunk). */
	t.c = NULL;
	__atomic_fetch_add(&st_retired, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&st_escaped, live, __ATOMIC_RELAXED);
	return live;
}

bool
scope_alloc_pause(void)
{
	bool	 was = t.on;

	t.on = false;
	return was;
}

void
scope_alloc_resume(bool was_on)
{
	t.on = was_on && t.depth > 0 && t.c != NULL;
}

bool
scope_alloc_owns(const void *p)
{
	return p != NULL && in_region(p);
}

bool
scope_alloc_check(void)
{
	struct chunk	*c = t.c;
	const uint64_t	*w;
	const uint64_t	 poison = 0x0101010101010101ull * SCOPE_ALLOC_POISON;
	size_t		 i;

	if (c == NULL)
		return true;
	if (!canaries_ok(c))
		return false;
	/* used and DATA_MAX are multiples of 16: whole words */
	w = (const uint64_t *)(const void *)(data_of(c) + c->used);
	for (i = 0; i < (DATA_MAX - c->used) / sizeof(*w); i++)
		if (w[i] != poison)
			return false;
	return true;
}

bool
scope_alloc_built(void)
{
	return true;
}

void
scope_alloc_stats(struct scope_alloc_stats *out)
{
	size_t	 n = __atomic_load_n(&next_chunk, __ATOMIC_RELAXED);

	out->scopes = __atomic_load_n(&st_scopes, __ATOMIC_RELAXED);
	out->blocks = __atomic_load_n(&st_blocks, __ATOMIC_RELAXED) + t.blocks;
	out->fallbacks = __atomic_load_n(&st_fallbacks, __ATOMIC_RELAXED) +
	    t.fallbacks;
	out->retired = __atomic_load_n(&st_retired, __ATOMIC_RELAXED);
	out->escaped = __atomic_load_n(&st_escaped, __ATOMIC_RELAXED);
	out->chunks = n < N_CHUNKS ? n : N_CHUNKS;
}

void
scope_alloc_set_count_hooks(void (*on_alloc)(size_t), void (*on_free)(void))
{
	hook_alloc = on_alloc;
	hook_free = on_free;
}

/* ---- the malloc family ---- */

static inline void
counted(size_t n)
{
	if (hook_alloc != NULL)
		hook_alloc(n);
}

void *
malloc(size_t n)
{
	void	*p;

	if (t.on && (p = chunk_alloc(n)) != NULL)
		return p;
	counted(n);
	return __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	void	*p;

	if (t.on) {
		if (size != 0 && n > SIZE_MAX / size) {
			errno = ENOMEM;
			return NULL;
		}
		if ((p = chunk_alloc(n * size)) != NULL) {
			memset(p, 0, n * size);	/* a reused chunk */
			return p;
		}
	}
	counted(n * size);
	return __libc_calloc(n, size);
}

void
free(void *p)
{
	if (p == NULL)
		return;
	if (in_region(p)) {
		chunk_free(p);
		return;
	}
	if (hook_free != NULL)
		hook_free();
	__libc_free(p);
}

void *
realloc(void *p, size_t n)
{
	size_t	 old;
	void	*q;

	if (p == NULL)
		return malloc(n);
	if (!in_region(p)) {
		counted(n);
		return __libc_realloc(p, n);
	}
	if (n == 0) {		/* as glibc: free, NULL */
		chunk_free(p);
		return NULL;
	}
	old = block_size(p);
	if (n <= ROUND16(old)) {	/* fits the block as it is */
		*(size_t *)(void *)((char *)p - BLOCK_HDR) = n;
		return p;
	}
	if ((q = malloc(n)) == NULL)	/* a chunk if on, else glibc */
		return NULL;
	memcpy(q, p, old);
	chunk_free(p);
	return q;
}

void *
reallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void *
memalign(size_t align, size_t n)
{
	counted(n);
	return __libc_memalign(align, n);
}

void *
aligned_alloc(size_t align, size_t n)
{
	counted(n);
	return __libc_memalign(align, n);
}

int
posix_memalign(void **out, size_t align, size_t n)
{
	void	*p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	counted(n);
	if ((p = __libc_memalign(align, n)) == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

void *
valloc(size_t n)
{
	counted(n);
	return __libc_valloc(n);
}

void *
pvalloc(size_t n)
{
	counted(n);
	return __libc_pvalloc(n);
}

size_t
malloc_usable_size(void *p)
{
	size_t	(*f)(void *);

	if (p == NULL)
		return 0;
	if (in_region(p))
		return ROUND16(block_size(p));
	if ((f = __atomic_load_n(&libc_usable, __ATOMIC_ACQUIRE)) == NULL) {
		/* glibc's own, the next definition after the executable */
		*(void **)&f = dlsym(RTLD_NEXT, "malloc_usable_size");
		if (f == NULL)
			return 0;
		__atomic_store_n(&libc_usable, f, __ATOMIC_RELEASE);
	}
	return f(p);
}

#endif /* !SCOPE_ALLOC_OFF */
