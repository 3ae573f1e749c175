/*
 * tests/host/capped.c: a Lua 5.4 host that caps the Lua heap with its own
 * allocator, as a sandbox or a game might (the capped-heap cases of run.sh).
 *
 *     capped CAP_MIB script.lua [args...]
 *
 * Every allocation Lua asks for goes through `capped_alloc`, which refuses
 * (returns NULL, so Lua raises "not enough memory") once the bytes in use
 * would pass the cap. Allocations made by the module's Rust code are not
 * counted: they use the system allocator. The script runs with the standard
 * libraries, `arg` (arg[0] the script, arg[1..] the rest), and a global
 * table `host`:
 *
 *     host.used()        bytes of Lua heap in use, as this allocator counts
 *     host.cap([bytes])  the cap in bytes; with an argument, sets it first
 *     host.refused()     how many allocations the cap has refused so far
 *     host.trim()        gives the C heap's free memory back to the system
 *                        (malloc_trim), so that RSS counts what is held,
 *                        not a freed chunk the heap's layout keeps
 *     host.fail(k)       counts the allocations that grow the heap from now
 *                        on, and refuses the k-th (0: none), and Lua's one
 *                        retry of it after its emergency collection, as a
 *                        full heap would; returns the count and whether
 *                        the k-th came since the last host.fail
 *                        (tests/faults/run.lua)
 *
 * package.cpath comes from LUA_CPATH_5_4 / LUA_CPATH as usual (run.sh points
 * it at build/lib/lua/5.4/?.so). Exit status: 0 when the script returns,
 * 1 when it raises (the message and a traceback go to stderr), 2 on bad usage.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

typedef struct {
    size_t used;
    size_t cap;
    size_t refused;
    /* host.fail: the growths counted, the one to refuse, whether it came,
       and the size of the retry to refuse (0: none). */
    size_t counted;
    size_t fail_at;
    int failed;
    size_t retry;
} Heap;

/* Whether host.fail refuses this growth to nsize bytes. */
static int injected(Heap *heap, size_t nsize) {
    if (heap->retry != 0) {
        size_t retry = heap->retry;
        heap->retry = 0;
        if (nsize == retry) return 1;
    }
    heap->counted++;
    if (heap->counted != heap->fail_at) return 0;
    heap->failed = 1;
    heap->retry = nsize;
    return 1;
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    Heap *heap = ud;
    size_t old = ptr ? osize : 0; /* without a block, osize is a type tag */
    if (nsize == 0) {
        free(ptr);
        heap->used -= old;
        return NULL;
    }
    if (nsize > old && injected(heap, nsize)) {
        heap->refused++;
        return NULL;
    }
    if (nsize > old && nsize - old > heap->cap - heap->used) {
        heap->refused++;
        return NULL;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) {
        heap->refused++;
        return NULL;
    }
    heap->used = heap->used - old + nsize;
    return block;
}

static Heap *heap_of(lua_State *L) {
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

static int host_used(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)heap_of(L)->used);
    return 1;
}

static int host_cap(lua_State *L) {
    Heap *heap = heap_of(L);
    if (!lua_isnoneornil(L, 1)) {
        lua_Integer cap = luaL_checkinteger(L, 1);
        luaL_argcheck(L, cap >= 0, 1, "cap must be >= 0");
        heap->cap = (size_t)cap;
    }
    lua_pushinteger(L, (lua_Integer)heap->cap);
    return 1;
}

static int host_refused(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)heap_of(L)->refused);
    return 1;
}

static int host_trim(lua_State *L) {
    (void)L;
    malloc_trim(0);
    return 0;
}

static int host_fail(lua_State *L) {
    Heap *heap = heap_of(L);
    lua_Integer k = luaL_checkinteger(L, 1);
    luaL_argcheck(L, k >= 0, 1, "k must be >= 0");
    size_t counted = heap->counted;
    int failed = heap->failed;
    heap->counted = 0;
    heap->failed = 0;
    heap->retry = 0;
    heap->fail_at = (size_t)k;
    lua_pushinteger(L, (lua_Integer)counted);
    lua_pushboolean(L, failed);
    return 2;
}

static int traceback(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    luaL_traceback(L, L, message ? message : "(error object is not a string)", 1);
    return 1;
}

static int run(lua_State *L) {
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    luaL_openlibs(L);

    static const luaL_Reg functions[] = {
        {"used", host_used}, {"cap", host_cap}, {"refused", host_refused}, {"trim", host_trim},
        {"fail", host_fail}, {NULL, NULL}};
    luaL_newlib(L, functions);
    lua_setglobal(L, "host");

    lua_createtable(L, argc, 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");

    if (luaL_loadfile(L, argv[0]) != LUA_OK) return lua_error(L);
    for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
    lua_call(L, argc - 1, 0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s CAP_MIB script.lua [args...]\n", argv[0]);
        return 2;
    }
    char *end;
    long mib = strtol(argv[1], &end, 10);
    if (*end != '\0' || mib <= 0) {
        fprintf(stderr, "capped: CAP_MIB must be a positive integer, got '%s'\n", argv[1]);
        return 2;
    }
    static Heap heap;
    heap.cap = (size_t)mib << 20;
    lua_State *L = lua_newstate(capped_alloc, &heap);
    if (L == NULL) {
        fprintf(stderr, "capped: cannot create a Lua state\n");
        return 1;
    }
    /* Everything, the standard libraries included, runs protected. */
    lua_pushcfunction(L, traceback);
    lua_pushcfunction(L, run);
    lua_pushinteger(L, argc - 2);
    lua_pushlightuserdata(L, argv + 2);
    int status = lua_pcall(L, 2, 0, 1);
    if (status != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        fprintf(stderr, "capped: %s\n", message ? message : "(error object is not a string)");
    }
    lua_close(L);
    fflush(stdout);
    return status == LUA_OK ? 0 : 1;
}
