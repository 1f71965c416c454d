/* Pylon hard's board scan, capture quiescence, move list, move order, stacking search and placement playouts
 * (and a placement tree search), compiled: the same functions as boardscan.scan_full_python,
 * search.Search.quiesce, .stackings, ._order and .negamax, ai._playouts_python and ai._uct_python (the
 * pure-Python ones are the reference and the fallback; tests/games/pylon/test_boardscan_compiled.py holds
 * them equal).
 *
 * The floating-point sum is done in the same order as Python's, in doubles, with no fused multiply-add
 * (setup.py compiles with -ffp-contract=off), and rounded half to even as Python's round() does, so the
 * value is the same integer bit for bit and the search makes the same moves, with the same node count,
 * whichever it runs. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAXSQ 64
#define MAXNB 8
#define MAXCAPS (MAXSQ * MAXNB)
#define NWEIGHTS 12

typedef struct {
    int count[MAXSQ][4];
    signed char nb[MAXSQ][4][MAXNB];
} Reach;

typedef struct {
    double w[NWEIGHTS];
    double w_size[4];
} Weights;

/* --- reading Python values ------------------------------------------------------------------------ */

static int read_ints(PyObject *list, int *out, Py_ssize_t n, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "Pylon scan: %s must be a list of %zd ints", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static int read_float(PyObject *seq, Py_ssize_t i, double *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL) return -1;
    *out = PyFloat_AsDouble(item);
    Py_DECREF(item);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int read_weights(PyObject *folded, Weights *out) {
    if (!PyTuple_Check(folded) || PyTuple_GET_SIZE(folded) != 2) {
        PyErr_SetString(PyExc_TypeError, "Pylon scan: weights must be a pair (w, w_size)");
        return -1;
    }
    PyObject *wo = PyTuple_GET_ITEM(folded, 0), *wso = PyTuple_GET_ITEM(folded, 1);
    for (int i = 0; i < NWEIGHTS; i++)
        if (read_float(wo, i, &out->w[i])) return -1;
    for (int i = 0; i < 4; i++)
        if (read_float(wso, i, &out->w_size[i])) return -1;
    return 0;
}

static int read_reach(PyObject *reach, Py_ssize_t n, Reach *out) {
    if (!PyList_Check(reach) || PyList_GET_SIZE(reach) != n) {
        PyErr_SetString(PyExc_TypeError, "Pylon scan: reach must hold one entry per square");
        return -1;
    }
    for (Py_ssize_t y = 0; y < n; y++) {
        PyObject *per = PyList_GET_ITEM(reach, y);
        if (!PyTuple_Check(per) || PyTuple_GET_SIZE(per) != 4) {
            PyErr_SetString(PyExc_TypeError, "Pylon scan: reach[y] must be a 4-tuple");
            return -1;
        }
        for (int t = 0; t < 4; t++) {
            PyObject *ns = PyTuple_GET_ITEM(per, t);
            if (!PyTuple_Check(ns) || PyTuple_GET_SIZE(ns) > MAXNB) {
                PyErr_SetString(PyExc_TypeError, "Pylon scan: reach[y][t] must be a tuple of at most 8 squares");
                return -1;
            }
            Py_ssize_t k = PyTuple_GET_SIZE(ns);
            out->count[y][t] = (int)k;
            for (Py_ssize_t j = 0; j < k; j++) {
                long nb = PyLong_AsLong(PyTuple_GET_ITEM(ns, j));
                if (nb < 0 || nb >= n) {
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_ValueError, "Pylon scan: a neighbour is off the board");
                    return -1;
                }
                out->nb[y][t][j] = (signed char)nb;
            }
        }
    }
    return 0;
}

/* Small caches keyed by the Python object, each holding a reference so that its address is not reused
 * while cached: the search passes the same weights, weight table and reach lists at every node. */
static PyObject *cached_weights_key = NULL;
static Weights cached_weights;
static PyObject *cached_table_key = NULL;
static Weights *cached_table = NULL;
static Py_ssize_t cached_table_len = 0;
static PyObject *cached_reach_key = NULL;
static Py_ssize_t cached_reach_n = 0;
static Reach cached_reach;

static const Weights *weights_of(PyObject *folded) {
    if (folded != cached_weights_key) {
        Weights w;
        if (read_weights(folded, &w)) return NULL;
        cached_weights = w;
        Py_INCREF(folded);
        Py_XSETREF(cached_weights_key, folded);
    }
    return &cached_weights;
}

static const Weights *table_of(PyObject *table, Py_ssize_t *len) {
    if (table != cached_table_key) {
        if (!PyList_Check(table)) {
            PyErr_SetString(PyExc_TypeError, "Pylon quiesce: the weight table must be a list");
            return NULL;
        }
        Py_ssize_t m = PyList_GET_SIZE(table);
        Weights *t = PyMem_Malloc(sizeof(Weights) * (size_t)(m ? m : 1));
        if (t == NULL) return (const Weights *)PyErr_NoMemory();
        for (Py_ssize_t i = 0; i < m; i++)
            if (read_weights(PyList_GET_ITEM(table, i), &t[i])) {
                PyMem_Free(t);
                return NULL;
            }
        PyMem_Free(cached_table);
        cached_table = t;
        cached_table_len = m;
        Py_INCREF(table);
        Py_XSETREF(cached_table_key, table);
    }
    *len = cached_table_len;
    return cached_table;
}

static const Reach *reach_of(PyObject *reach, Py_ssize_t n) {
    if (reach != cached_reach_key || n != cached_reach_n) {
        if (read_reach(reach, n, &cached_reach)) {
            Py_CLEAR(cached_reach_key);  /* half written: not a cache of anything */
            return NULL;
        }
        cached_reach_n = n;
        Py_INCREF(reach);
        Py_XSETREF(cached_reach_key, reach);
    }
    return &cached_reach;
}

/* --- the scan ------------------------------------------------------------------------------------- */

/* boardscan.scan_full_python on C arrays: the value (rounded) for side, whether any stacking is left
 * (*anymove), and side's captures appended to caps (if caps is not NULL; *ncaps counts them). */
static long scan_core(int n, const int *h, const int *top, const int *ts, const int *bs, int side,
                      const Weights *wt, const Reach *reach, int empty_reaches, int *caps, int *ncaps,
                      int *anymove) {
    const double *w = wt->w, *w_size = wt->w_size;
    double w_stack = w[6], w_bot1 = w[11], w_locked = w[1];
    double acc = 0.0;
    long cap_me = 0, cap_them = 0, maxcap_me = 0, maxcap_them = 0, mob = 0;
    int any = 0;
    for (int y = 0; y < n; y++) {
        int hy = h[y];
        if (!hy) continue;
        int o = top[y], t = ts[y];
        double v = (double)hy * w_size[t] + w_stack + (bs[y] == 1 ? w_bot1 : 0.0);
        int reached = 0, near = 0, cap = 0;
        int k = reach->count[y][t];
        const signed char *ns = reach->nb[y][t];
        for (int j = 0; j < k; j++) {
            int nb = ns[j];
            if (h[nb]) {
                reached = 1;
                if (top[nb] == side) {
                    mob += 1;
                    if (o != side) {
                        cap = 1;
                        if (caps != NULL) caps[(*ncaps)++] = nb * 32 + y;
                    }
                } else {
                    mob -= 1;
                    if (o == side) cap = 1;
                }
            } else if (empty_reaches) {
                near = 1;
            }
        }
        if (reached)
            any = 1;
        else if (!near)
            v += (double)hy * w_locked;
        if (o == side) {
            acc += v;
            if (cap) {
                cap_them += hy;
                if (hy > maxcap_them) maxcap_them = hy;
            }
        } else {
            acc -= v;
            if (cap) {
                cap_me += hy;
                if (hy > maxcap_me) maxcap_me = hy;
            }
        }
    }
    /* Python's left-to-right: acc += w2*a + w3*b + w4*c + w5*d + w10*e */
    double tail = w[2] * (double)cap_me;
    tail = tail + w[3] * (double)cap_them;
    tail = tail + w[4] * (double)maxcap_me;
    tail = tail + w[5] * (double)maxcap_them;
    tail = tail + w[10] * (double)mob;
    acc += tail;
    *anymove = any;
    return (long)nearbyint(acc); /* the default rounding mode: half to even, as round() */
}

static int read_board(PyObject *const *args, Py_ssize_t *n, int *h, int *top, int *ts, int *bs) {
    if (!PyList_Check(args[0]) || PyList_GET_SIZE(args[0]) > MAXSQ) {
        PyErr_SetString(PyExc_TypeError, "Pylon scan: h must be a list of at most 64 ints");
        return -1;
    }
    *n = PyList_GET_SIZE(args[0]);
    if (read_ints(args[0], h, *n, "h") || read_ints(args[1], top, *n, "top") || read_ints(args[2], ts, *n, "ts")
        || read_ints(args[3], bs, *n, "bs"))
        return -1;
    for (Py_ssize_t i = 0; i < *n; i++)
        if (h[i] && (ts[i] < 0 || ts[i] > 3)) {
            PyErr_SetString(PyExc_ValueError, "Pylon scan: a top size must be 0..3");
            return -1;
        }
    return 0;
}

/* scan_full(h, top, ts, bs, side, caps, weights, reach, empty_reaches=False), positional only */
static PyObject *scan_full(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 && nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "scan_full takes 8 or 9 positional arguments");
        return NULL;
    }
    Py_ssize_t n;
    int h[MAXSQ], top[MAXSQ], ts[MAXSQ], bs[MAXSQ];
    if (read_board(args, &n, h, top, ts, bs)) return NULL;
    long side = PyLong_AsLong(args[4]);
    if (side == -1 && PyErr_Occurred()) return NULL;
    PyObject *capso = args[5];
    if (capso != Py_None && !PyList_Check(capso)) {
        PyErr_SetString(PyExc_TypeError, "scan_full: caps must be a list or None");
        return NULL;
    }
    int empty_reaches = nargs == 9 ? PyObject_IsTrue(args[8]) : 0;
    if (empty_reaches < 0) return NULL;
    const Weights *w = weights_of(args[6]);
    if (w == NULL) return NULL;
    const Reach *reach = reach_of(args[7], n);
    if (reach == NULL) return NULL;
    int caps[MAXCAPS], ncaps = 0, anymove;
    long value = scan_core((int)n, h, top, ts, bs, (int)side, w, reach, empty_reaches,
                           capso == Py_None ? NULL : caps, &ncaps, &anymove);
    for (int i = 0; i < ncaps; i++) {
        PyObject *c = PyLong_FromLong(caps[i]);
        if (c == NULL) return NULL;
        int bad = PyList_Append(capso, c);
        Py_DECREF(c);
        if (bad) return NULL;
    }
    return Py_BuildValue("lO", value, anymove ? Py_True : Py_False);
}

/* --- the capture quiescence ------------------------------------------------------------------------- */

typedef struct {
    int n, stacks, win;
    int h[MAXSQ], top[MAXSQ], ts[MAXSQ], bs[MAXSQ];
    const Weights *table;
    Py_ssize_t table_len;
    const Reach *reach;
    long long nodes, budget;
    double deadline;
    PyObject *clock;
    int stop; /* 1: the node budget or the time cap ran out; -1: a Python error (from the clock) */
} Q;

static int tick(Q *q) {
    q->nodes += 1;
    if (q->nodes >= q->budget) {
        q->stop = 1;
        return 1;
    }
    if (!(q->nodes & 255) && q->clock != NULL) { /* no clock: the placement playouts' endings */
        PyObject *now = PyObject_CallNoArgs(q->clock);
        if (now == NULL) {
            q->stop = -1;
            return 1;
        }
        double t = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (t == -1.0 && PyErr_Occurred()) {
            q->stop = -1;
            return 1;
        }
        if (t > q->deadline) {
            q->stop = 1;
            return 1;
        }
    }
    return 0;
}

static long final_value(const Q *q, int side) {
    long m = 0;
    for (int i = 0; i < q->n; i++)
        if (q->h[i]) m += q->top[i] == 0 ? q->h[i] : -q->h[i];
    if (side != 0) m = -m;
    return 2 * m + (m > 0 ? q->win : (m < 0 ? -q->win : 0));
}

/* Search.make / unmake of a stacking x onto y (what the zobrist key needs is in the Undo too). */
typedef struct {
    int hx, tx, tsx, hy, ty, tsy, bx;
} Undo;

static void stack_onto(Q *q, int x, int y, Undo *u) {
    int *h = q->h, *top = q->top, *ts = q->ts, *bs = q->bs;
    *u = (Undo){h[x], top[x], ts[x], h[y], top[y], ts[y], bs[x]};
    h[y] = u->hx + u->hy;
    top[y] = u->tx;
    ts[y] = u->tsx;
    h[x] = 0;
    top[x] = -1;
    ts[x] = 0;
    bs[x] = 9;
    q->stacks -= 1;
}

static void unstack(Q *q, int x, int y, const Undo *u) {
    q->h[x] = u->hx;
    q->top[x] = u->tx;
    q->ts[x] = u->tsx;
    q->bs[x] = u->bx;
    q->h[y] = u->hy;
    q->top[y] = u->ty;
    q->ts[y] = u->tsy;
    q->stacks += 1;
}

/* Search.quiesce on a full board. *over: the position itself has no stacking left (its value is then
 * exact). leaf: the search's leaf, which counts no node for a position that is over (Search.negamax's
 * game-over test). The scan comes before the node's tick: it reads nothing the tick changes. On q->stop the
 * value means nothing. */
static long quiesce(Q *q, int side, long alpha, long beta, int depth, int leaf, int *over) {
    *over = 0;
    int caps[MAXCAPS], ncaps = 0, anymove;
    long stand = scan_core(q->n, q->h, q->top, q->ts, q->bs, side, &q->table[q->stacks], q->reach, 0, caps,
                           &ncaps, &anymove);
    if (!anymove) {
        if (!leaf && tick(q)) return 0;
        *over = 1;
        return final_value(q, side);
    }
    if (tick(q)) return 0;
    if (stand >= beta || depth == 0 || !ncaps) return stand;
    if (stand > alpha) alpha = stand;
    /* biggest captured stack first, ties in the scan's order (Python's sort is stable) */
    for (int i = 1; i < ncaps; i++) {
        int m = caps[i], hm = q->h[m & 31], j = i - 1;
        while (j >= 0 && q->h[caps[j] & 31] < hm) {
            caps[j + 1] = caps[j];
            j--;
        }
        caps[j + 1] = m;
    }
    for (int i = 0; i < ncaps; i++) {
        int x = caps[i] >> 5, y = caps[i] & 31;
        Undo u;
        stack_onto(q, x, y, &u);
        int sub_over;
        long v = -quiesce(q, 1 - side, -beta, -alpha, depth - 1, 0, &sub_over);
        unstack(q, x, y, &u);
        if (q->stop) return 0;
        if (v > alpha) {
            alpha = v;
            if (alpha >= beta) break;
        }
    }
    return alpha;
}

/* quiesce(h, top, ts, bs, side, alpha, beta, depth, stacks, table, reach, nodes, budget, deadline, clock,
 * win, leaf=False) -> (value, nodes, status): status 0 the value is a heuristic one, 1 the position is over
 * (its value exact), 2 the node budget or the time cap ran out (the value means nothing). leaf: the search's
 * leaf, which first asks whether the game is over and then counts the quiescence's node (Search.negamax). */
static PyObject *quiesce_py(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 16 && nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "quiesce takes 16 or 17 positional arguments");
        return NULL;
    }
    Q q;
    Py_ssize_t n;
    if (read_board(args, &n, q.h, q.top, q.ts, q.bs)) return NULL;
    q.n = (int)n;
    long side = PyLong_AsLong(args[4]);
    long alpha = PyLong_AsLong(args[5]);
    long beta = PyLong_AsLong(args[6]);
    long depth = PyLong_AsLong(args[7]);
    long stacks = PyLong_AsLong(args[8]);
    if (PyErr_Occurred()) return NULL;
    q.stacks = (int)stacks;
    q.table = table_of(args[9], &q.table_len);
    if (q.table == NULL) return NULL;
    q.reach = reach_of(args[10], n);
    if (q.reach == NULL) return NULL;
    q.nodes = PyLong_AsLongLong(args[11]);
    q.budget = PyLong_AsLongLong(args[12]);
    q.deadline = PyFloat_AsDouble(args[13]);
    q.clock = args[14];
    long win = PyLong_AsLong(args[15]);
    if (PyErr_Occurred()) return NULL;
    q.win = (int)win;
    q.stop = 0;
    if (stacks < 0) {
        PyErr_SetString(PyExc_ValueError, "Pylon quiesce: a negative stack count");
        return NULL;
    }
    int leaf = nargs == 17 ? PyObject_IsTrue(args[16]) : 0;
    if (leaf < 0) return NULL;
    if (q.stacks >= q.table_len) { /* captures only lower the count: checked once */
        PyErr_SetString(PyExc_ValueError, "Pylon quiesce: more stacks than the weight table knows");
        return NULL;
    }
    int over;
    long v = quiesce(&q, (int)side, alpha, beta, (int)depth, leaf, &over);
    if (q.stop < 0) return NULL;
    return Py_BuildValue("lLi", v, q.nodes, q.stop ? 2 : over);
}

/* --- moves and their order ------------------------------------------------------------------------- */

/* stackings(h, ts, bs, neighbours) -> Search.stackings: x * 32 + y for every stack x that fits onto a
 * neighbouring stack y, in (x, y) order; neighbours: per square, its neighbours ascending. */
static PyObject *stackings(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "stackings takes 4 positional arguments");
        return NULL;
    }
    int h[MAXSQ], ts[MAXSQ], bs[MAXSQ];
    if (!PyList_Check(args[0]) || PyList_GET_SIZE(args[0]) > MAXSQ) {
        PyErr_SetString(PyExc_TypeError, "Pylon stackings: h must be a list of at most 64 ints");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[0]);
    if (read_ints(args[0], h, n, "h") || read_ints(args[1], ts, n, "ts") || read_ints(args[2], bs, n, "bs"))
        return NULL;
    PyObject *nbs = args[3];
    if (!PyTuple_Check(nbs) || PyTuple_GET_SIZE(nbs) != n) {
        PyErr_SetString(PyExc_TypeError, "Pylon stackings: neighbours must be a tuple, one entry per square");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (Py_ssize_t x = 0; x < n; x++) {
        if (!h[x]) continue;
        PyObject *ns = PyTuple_GET_ITEM(nbs, x);
        if (!PyTuple_Check(ns)) {
            PyErr_SetString(PyExc_TypeError, "Pylon stackings: neighbours[x] must be a tuple");
            Py_DECREF(out);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(ns); j++) {
            long y = PyLong_AsLong(PyTuple_GET_ITEM(ns, j));
            if (y < 0 || y >= n) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Pylon stackings: a neighbour is off the board");
                Py_DECREF(out);
                return NULL;
            }
            if (h[y] && bs[x] <= ts[y]) {
                PyObject *m = PyLong_FromLong((long)x * 32 + y);
                if (m == NULL || PyList_Append(out, m)) {
                    Py_XDECREF(m);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(m);
            }
        }
    }
    return out;
}

/* order(moves, top, h, side, first, killers, history, place) -> Search._order: the moves sorted by the
 * key below, stably (ties keep their order, as Python's sorted does). */
static PyObject *order(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "order takes 8 positional arguments");
        return NULL;
    }
    PyObject *moves = args[0], *killers = args[5], *history = args[6];
    if (!PyList_Check(moves) || !PyDict_Check(history) || !(PyList_Check(killers) || PyTuple_Check(killers))) {
        PyErr_SetString(PyExc_TypeError, "Pylon order: moves a list, killers a list or tuple, history a dict");
        return NULL;
    }
    int top[MAXSQ], h[MAXSQ];
    if (!PyList_Check(args[1]) || PyList_GET_SIZE(args[1]) > MAXSQ) {
        PyErr_SetString(PyExc_TypeError, "Pylon order: top must be a list of at most 64 ints");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    if (read_ints(args[1], top, n, "top") || read_ints(args[2], h, n, "h")) return NULL;
    long side = PyLong_AsLong(args[3]);
    long first = PyLong_AsLong(args[4]);
    long place = PyLong_AsLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t k = PyList_GET_SIZE(moves);
    Py_ssize_t nk = PySequence_Fast_GET_SIZE(killers);
    PyObject **kill = PySequence_Fast_ITEMS(killers);
    long kv[8];
    if (nk > 8) nk = 8; /* the search keeps two */
    for (Py_ssize_t i = 0; i < nk; i++) {
        kv[i] = PyLong_AsLong(kill[i]);
        if (kv[i] == -1 && PyErr_Occurred()) return NULL;
    }
    long long *keys = PyMem_Malloc(sizeof(long long) * (size_t)(k ? k : 1));
    Py_ssize_t *idx = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(k ? k : 1));
    if (keys == NULL || idx == NULL) {
        PyMem_Free(keys);
        PyMem_Free(idx);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *mo = PyList_GET_ITEM(moves, i);
        long m = PyLong_AsLong(mo);
        if (m == -1 && PyErr_Occurred()) goto fail;
        long long key;
        int from_history = 0;
        if (m == first) {
            key = -1000000;
        } else if (m >= place) {
            from_history = 1;
        } else {
            long x = m >> 5, y = m & 31;
            if (x >= n || y >= n || x < 0) {
                PyErr_SetString(PyExc_ValueError, "Pylon order: a move off the board");
                goto fail;
            }
            long tx = top[x], ty = top[y];
            int killer = 0;
            for (Py_ssize_t j = 0; j < nk; j++)
                if (kv[j] == m) killer = 1;
            if (tx == side && ty != side)
                key = -100000 - (long long)h[y];
            else if (killer)
                key = -50000;
            else if (tx != side && ty == side)
                key = 50000 + (long long)h[y];
            else
                from_history = 1;
        }
        if (from_history) {
            PyObject *hv = PyDict_GetItemWithError(history, mo);
            if (hv == NULL) {
                if (PyErr_Occurred()) goto fail;
                key = 0;
            } else {
                key = -PyLong_AsLongLong(hv);
                if (key == 1 && PyErr_Occurred()) goto fail;
            }
        }
        keys[i] = key;
        idx[i] = i;
    }
    /* a stable insertion sort by key (a few dozen moves) */
    for (Py_ssize_t i = 1; i < k; i++) {
        Py_ssize_t v = idx[i];
        long long kk = keys[v];
        Py_ssize_t j = i - 1;
        while (j >= 0 && keys[idx[j]] > kk) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = v;
    }
    PyObject *out = PyList_New(k);
    if (out == NULL) goto fail;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *mo = PyList_GET_ITEM(moves, idx[i]);
        Py_INCREF(mo);
        PyList_SET_ITEM(out, i, mo);
    }
    PyMem_Free(keys);
    PyMem_Free(idx);
    return out;
fail:
    PyMem_Free(keys);
    PyMem_Free(idx);
    return NULL;
}

/* --- the placement judge's quick playouts --------------------------------------------------------- */

/* SplitMix64 (Steele, Lea and Flood 2014): ai._SplitMix is the same generator in Python. */
static uint64_t sm_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int sm_below(uint64_t *s, int n) { return (int)(((sm_next(s) >> 32) * (uint64_t)n) >> 32); }

typedef struct {
    int n;
    int count[MAXSQ];
    int nb[MAXSQ][MAXNB];
} Nbrs;

/* ai._greedy_stacking: the stacking gaining `me` the most now; among equal gains one that leaves no
 * opponent stack able to cover its new stack; remaining ties at random. 0 if there is none. */
static int greedy(const Nbrs *g, const int *h, const int *top, const int *ts, const int *bs, int me,
                  uint64_t *rng, int *px, int *py) {
    int best_gain = -10000, best_risk = 0, k = 0;
    int cx[MAXCAPS], cy[MAXCAPS];
    for (int x = 0; x < g->n; x++) {
        if (!h[x]) continue;
        int bx = bs[x], tx = top[x], mine = tx == me;
        for (int j = 0; j < g->count[x]; j++) {
            int y = g->nb[x][j];
            if (!h[y] || bx > ts[y]) continue;
            int gain = tx == top[y] ? 0 : (mine ? h[y] : -h[y]);
            if (gain < best_gain) continue;
            int risk = 0;
            if (mine) {
                int tsx = ts[x];
                for (int i = 0; i < g->count[y]; i++) {
                    int m = g->nb[y][i];
                    if (m != x && h[m] && top[m] != me && bs[m] <= tsx) {
                        risk = -1;
                        break;
                    }
                }
            }
            if (gain > best_gain || risk > best_risk) {
                best_gain = gain;
                best_risk = risk;
                k = 0;
                cx[k] = x;
                cy[k++] = y;
            } else if (risk == best_risk) {
                cx[k] = x;
                cy[k++] = y;
            }
        }
    }
    if (!k) return 0;
    int i = sm_below(rng, k);
    *px = cx[i];
    *py = cy[i];
    return 1;
}

/* The rest of a placement at random (the empty squares shuffled, each placer's size drawn from the sizes it
 * has left) into top and ts. Returns -1 if a placer has no piece left for an empty square. */
static int fill(const Nbrs *g, const int *top0, const int *ts0, const int *stash0, int turn, uint64_t *rng,
                int *top, int *ts) {
    int n = g->n, empty[MAXSQ], ne = 0, stash[6];
    memcpy(stash, stash0, sizeof stash);
    for (int i = 0; i < n; i++) {
        top[i] = top0[i];
        ts[i] = ts0[i];
        if (top0[i] < 0) empty[ne++] = i;
    }
    for (int i = ne - 1; i > 0; i--) {
        int j = sm_below(rng, i + 1), t = empty[i];
        empty[i] = empty[j];
        empty[j] = t;
    }
    while (ne) {
        int sizes[3], k = 0;
        for (int z = 1; z <= 3; z++)
            if (stash[3 * turn + z - 1]) sizes[k++] = z;
        if (!k) return -1;
        int z = sizes[sm_below(rng, k)], sq = empty[--ne];
        top[sq] = turn;
        ts[sq] = z;
        stash[3 * turn + z - 1]--;
        turn = 1 - turn;
    }
    return 0;
}

/* One quick game from a placement position: fill(), then both sides stacking greedily, the second placer
 * first. Returns `seat`'s final margin, or LONG_MIN if a placer has no piece left. */
static long playout(const Nbrs *g, const int *top0, const int *ts0, const int *stash0, int turn, int seat,
                    uint64_t *rng) {
    int n = g->n, h[MAXSQ], top[MAXSQ], ts[MAXSQ], bs[MAXSQ];
    if (fill(g, top0, ts0, stash0, turn, rng, top, ts)) return LONG_MIN;
    for (int i = 0; i < n; i++) {
        h[i] = 1;
        bs[i] = ts[i];
    }
    int side = 1, x, y;
    while (greedy(g, h, top, ts, bs, side, rng, &x, &y)) {
        h[y] += h[x];
        top[y] = top[x];
        ts[y] = ts[x];
        h[x] = 0;
        side = 1 - side;
    }
    int margin = 0;
    for (int i = 0; i < n; i++)
        if (h[i]) margin += top[i] == seat ? h[i] : -h[i];
    return margin;
}

/* One playout ended by the search's judgement instead of stacking: fill(), then the capture quiescence of
 * depth qdepth on the full board (the learned evaluation, the second placer to move), from `seat`'s view in
 * half-pyramids, a finished game's WIN taken off. Returns LONG_MIN if a placer has no piece left. */
static long playout_judged(const Nbrs *g, const int *top0, const int *ts0, const int *stash0, int turn,
                           int seat, uint64_t *rng, const Weights *table, int qdepth, int win) {
    Q q;
    int n = g->n;
    if (fill(g, top0, ts0, stash0, turn, rng, q.top, q.ts)) return LONG_MIN;
    Reach reach;
    for (int y = 0; y < n; y++) {
        q.h[y] = 1;
        q.bs[y] = q.ts[y];
    }
    for (int y = 0; y < n; y++)
        for (int t = 0; t < 4; t++) {
            int k = 0;
            for (int j = 0; j < g->count[y]; j++)
                if (q.bs[g->nb[y][j]] <= t) reach.nb[y][t][k++] = (signed char)g->nb[y][j];
            reach.count[y][t] = k;
        }
    q.n = n;
    q.stacks = n;
    q.win = win;
    q.table = table;
    q.table_len = n + 1;
    q.reach = &reach;
    q.nodes = 0;
    q.budget = LLONG_MAX;
    q.deadline = 0.0;
    q.clock = NULL;
    q.stop = 0;
    int over;
    long v = quiesce(&q, 1, -1000000000L, 1000000000L, qdepth, 0, &over);
    if (v > win / 2) v -= win;
    else if (v < -(win / 2)) v += win;
    return seat == 1 ? v : -v;
}

static int read_nbrs(PyObject *nbs, Nbrs *g) {
    if (!PyTuple_Check(nbs) || PyTuple_GET_SIZE(nbs) != g->n) {
        PyErr_SetString(PyExc_TypeError, "Pylon playouts: neighbours must be a tuple, one entry per square");
        return -1;
    }
    for (int x = 0; x < g->n; x++) {
        PyObject *ns = PyTuple_GET_ITEM(nbs, x);
        if (!PyTuple_Check(ns) || PyTuple_GET_SIZE(ns) > MAXNB) {
            PyErr_SetString(PyExc_TypeError, "Pylon playouts: neighbours[x] must be a tuple of at most 8 squares");
            return -1;
        }
        g->count[x] = (int)PyTuple_GET_SIZE(ns);
        for (int j = 0; j < g->count[x]; j++) {
            long y = PyLong_AsLong(PyTuple_GET_ITEM(ns, j));
            if (y < 0 || y >= g->n) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Pylon playouts: a neighbour is off the board");
                return -1;
            }
            g->nb[x][j] = (int)y;
        }
    }
    return 0;
}

/* args[0..3]: top, ts, stash, turn of a placement position (the board size from top). */
static int read_placement(PyObject *const *args, Nbrs *g, int *top, int *ts, int *stash, long *turn) {
    if (!PyList_Check(args[0]) || PyList_GET_SIZE(args[0]) > MAXSQ) {
        PyErr_SetString(PyExc_TypeError, "Pylon playouts: top must be a list of at most 64 ints");
        return -1;
    }
    g->n = (int)PyList_GET_SIZE(args[0]);
    if (read_ints(args[0], top, g->n, "top") || read_ints(args[1], ts, g->n, "ts") ||
        read_ints(args[2], stash, 6, "stash"))
        return -1;
    *turn = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return -1;
    if (*turn != 0 && *turn != 1) {
        PyErr_SetString(PyExc_ValueError, "Pylon playouts: turn must be 0 or 1");
        return -1;
    }
    for (int i = 0; i < g->n; i++) {
        if (top[i] < -1 || top[i] > 1 || (top[i] >= 0 && (ts[i] < 1 || ts[i] > 3))) {
            PyErr_SetString(PyExc_ValueError, "Pylon playouts: a square holds no piece of 1-3 of seat 0 or 1");
            return -1;
        }
    }
    for (int i = 0; i < 6; i++) {
        if (stash[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "Pylon playouts: a stash count is negative");
            return -1;
        }
    }
    return 0;
}

/* args[0..2]: a judged ending's weight table (None: *table stays NULL), quiescence depth and win bonus, for a
 * board of n squares. */
static int read_judge(PyObject *const *args, int n, const Weights **table, long *qdepth, long *win) {
    if (args[0] == Py_None) return 0;
    Py_ssize_t len;
    *table = table_of(args[0], &len);
    if (*table == NULL) return -1;
    *qdepth = PyLong_AsLong(args[1]);
    *win = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return -1;
    if (len <= n || *qdepth < 0 || *win < 0 || *win > 1000000) {
        PyErr_SetString(PyExc_ValueError,
                        "Pylon playouts: the weight table must cover a full board, qdepth and win >= 0");
        return -1;
    }
    return 0;
}

/* playouts(top, ts, stash, turn, seat, n, state, neighbours[, table, qdepth, win]) -> (sum, state): n of
 * playout() above, as ai._playouts_python does them, the sum of seat's margins; with a weight table (not
 * None), n of playout_judged() (qdepth: the quiescence's depth, win: a finished game's bonus), the sum of
 * their values.
 * top: per square its owner or -1 (empty), ts: its size; stash: both seats' pieces left by size (seat 0's
 * three, then seat 1's); turn: the next placer; state: the SplitMix64 state, returned advanced. */
static PyObject *playouts(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 && nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "playouts takes 8 or 11 positional arguments");
        return NULL;
    }
    Nbrs g;
    int top[MAXSQ], ts[MAXSQ], stash[6];
    long turn;
    if (read_placement(args, &g, top, ts, stash, &turn)) return NULL;
    long seat = PyLong_AsLong(args[4]), count = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    uint64_t rng = PyLong_AsUnsignedLongLongMask(args[6]);
    if (PyErr_Occurred()) return NULL;
    if ((seat != 0 && seat != 1) || count < 0) {
        PyErr_SetString(PyExc_ValueError, "Pylon playouts: seat must be 0 or 1, n not negative");
        return NULL;
    }
    if (read_nbrs(args[7], &g)) return NULL;
    const Weights *table = NULL; /* NULL: stacked to the end */
    long qdepth = 0, win = 0;
    if (nargs == 11 && read_judge(args + 8, g.n, &table, &qdepth, &win)) return NULL;
    long long total = 0;
    for (long i = 0; i < count; i++) {
        long m = table == NULL ? playout(&g, top, ts, stash, (int)turn, (int)seat, &rng)
                               : playout_judged(&g, top, ts, stash, (int)turn, (int)seat, &rng, table,
                                                (int)qdepth, (int)win);
        if (m == LONG_MIN) {
            PyErr_SetString(PyExc_ValueError, "Pylon playouts: a placer has no piece left for an empty square");
            return NULL;
        }
        total += m;
    }
    return Py_BuildValue("(LK)", total, (unsigned long long)rng);
}

/* --- the placement judge's tree search (UCT over placements, the playouts above at its leaves) ------- */

typedef struct {
    int first, sibling; /* the newest child; the next older sibling (-1: none) */
    int n;              /* visits */
    double w;           /* the sum of results from the view of the seat that made `move` */
    uint64_t done[2];   /* the moves already expanded: bit 3 * square + size - 1 */
    short move;         /* 4 * square + size, -1 at the root */
    short mover, nexp, nlegal;
} UNode;

static int legal_count(int n, const int *top, const int *stash, int turn) {
    int sizes = 0, empty = 0;
    for (int z = 0; z < 3; z++) sizes += stash[3 * turn + z] > 0;
    for (int i = 0; i < n; i++) empty += top[i] < 0;
    return empty ? sizes * empty : 0;
}

/* uct(top, ts, stash, turn, sims, state, c, deadline, clock, neighbours[, table, qdepth, win, scale]) ->
 * ([(move, visits, sum)] for the root's children, newest first, state, sims done): ai._uct_python,
 * compiled. With a weight table (not None) a leaf is scored by playout_judged() (seat 0's value v) as
 * tanh(v / scale) instead of a stacked playout's +1, 0 or -1. */
static PyObject *uct(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10 && nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "uct takes 10 or 14 positional arguments");
        return NULL;
    }
    Nbrs g;
    int top0[MAXSQ], ts0[MAXSQ], stash0[6];
    long turn0;
    if (read_placement(args, &g, top0, ts0, stash0, &turn0)) return NULL;
    long sims = PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    uint64_t rng = PyLong_AsUnsignedLongLongMask(args[5]);
    if (PyErr_Occurred()) return NULL;
    double c = PyFloat_AsDouble(args[6]), deadline = PyFloat_AsDouble(args[7]);
    if (PyErr_Occurred()) return NULL;
    PyObject *clock = args[8];
    if (sims < 0 || sims > 50000000) {
        PyErr_SetString(PyExc_ValueError, "Pylon uct: sims must be 0 to 50,000,000");
        return NULL;
    }
    if (g.n > 30) {
        PyErr_SetString(PyExc_ValueError, "Pylon uct: at most 30 squares");
        return NULL;
    }
    if (read_nbrs(args[9], &g)) return NULL;
    const Weights *table = NULL; /* NULL: stacked playouts */
    long qdepth = 0, win = 0;
    double scale = 1.0;
    if (nargs == 14) {
        if (read_judge(args + 10, g.n, &table, &qdepth, &win)) return NULL;
        scale = PyFloat_AsDouble(args[13]);
        if (scale == -1.0 && PyErr_Occurred()) return NULL;
        if (table != NULL && !(scale > 0.0)) {
            PyErr_SetString(PyExc_ValueError, "Pylon uct: scale must be > 0");
            return NULL;
        }
    }
    UNode *pool = PyMem_Malloc(sizeof(UNode) * (size_t)(sims + 1));
    if (pool == NULL) return PyErr_NoMemory();
    int used = 1;
    memset(&pool[0], 0, sizeof(UNode));
    pool[0].first = pool[0].sibling = -1;
    pool[0].move = -1;
    pool[0].mover = (short)(1 - turn0);
    pool[0].nlegal = (short)legal_count(g.n, top0, stash0, (int)turn0);
    int path[MAXSQ + 2];
    long done = 0;
    for (; done < sims; done++) {
        if (done && !(done & 255)) {
            PyObject *now = PyObject_CallNoArgs(clock);
            if (now == NULL) goto fail;
            double t = PyFloat_AsDouble(now);
            Py_DECREF(now);
            if (t == -1.0 && PyErr_Occurred()) goto fail;
            if (t > deadline) break;
        }
        int top[MAXSQ], ts[MAXSQ], stash[6], turn = (int)turn0, depth = 0, node = 0;
        memcpy(top, top0, sizeof(int) * (size_t)g.n);
        memcpy(ts, ts0, sizeof(int) * (size_t)g.n);
        memcpy(stash, stash0, sizeof stash);
        path[depth++] = 0;
        while (pool[node].nlegal) {
            UNode *p = &pool[node];
            int pick = -1;
            if (p->nexp < p->nlegal) { /* a move not tried here yet, at random */
                int k = sm_below(&rng, p->nlegal - p->nexp), mv = -1;
                for (int sq = 0; sq < g.n && mv < 0; sq++) {
                    if (top[sq] >= 0) continue;
                    for (int z = 1; z <= 3; z++) {
                        int bit = 3 * sq + z - 1;
                        if (!stash[3 * turn + z - 1] || (p->done[bit >> 6] >> (bit & 63)) & 1) continue;
                        if (!k--) {
                            mv = 4 * sq + z;
                            p->done[bit >> 6] |= 1ULL << (bit & 63);
                            break;
                        }
                    }
                }
                int child = used++;
                UNode *q = &pool[child];
                memset(q, 0, sizeof(UNode));
                q->move = (short)mv;
                q->mover = (short)turn;
                q->sibling = p->first;
                q->first = -1;
                p->first = child;
                p->nexp++;
                pick = child;
            } else { /* UCB1 */
                double logn = log((double)p->n), best = -1e300;
                for (int ch = p->first; ch >= 0; ch = pool[ch].sibling) {
                    double v = pool[ch].w / pool[ch].n + c * sqrt(logn / pool[ch].n);
                    if (v > best) {
                        best = v;
                        pick = ch;
                    }
                }
            }
            int sq = pool[pick].move / 4, z = pool[pick].move % 4;
            top[sq] = turn;
            ts[sq] = z;
            stash[3 * turn + z - 1]--;
            turn = 1 - turn;
            path[depth++] = pick;
            node = pick;
            if (pool[pick].n == 0) {
                pool[pick].nlegal = (short)legal_count(g.n, top, stash, turn);
                break;
            }
        }
        long m = table == NULL ? playout(&g, top, ts, stash, turn, 0, &rng)
                               : playout_judged(&g, top, ts, stash, turn, 0, &rng, table, (int)qdepth, (int)win);
        if (m == LONG_MIN) {
            PyErr_SetString(PyExc_ValueError, "Pylon uct: a placer has no piece left for an empty square");
            goto fail;
        }
        double r = table != NULL ? tanh((double)m / scale) : (m > 0 ? 1.0 : (m < 0 ? -1.0 : 0.0));
        for (int i = 0; i < depth; i++) {
            UNode *p = &pool[path[i]];
            p->n++;
            p->w += p->mover == 0 ? r : -r;
        }
    }
    PyObject *kids = PyList_New(0);
    if (kids == NULL) goto fail;
    for (int ch = pool[0].first; ch >= 0; ch = pool[ch].sibling) {
        PyObject *t = Py_BuildValue("(iid)", (int)pool[ch].move, pool[ch].n, pool[ch].w);
        if (t == NULL || PyList_Append(kids, t)) {
            Py_XDECREF(t);
            Py_DECREF(kids);
            goto fail;
        }
        Py_DECREF(t);
    }
    PyMem_Free(pool);
    return Py_BuildValue("(NKl)", kids, (unsigned long long)rng, done);
fail:
    PyMem_Free(pool);
    return NULL;
}

/* --- the stacking search ----------------------------------------------------------------------------- */

/* Search.negamax once the board is full, compiled: the same transposition table (a dict there: every
 * entry kept, a later one replacing an earlier), killers per ply, history per move, move order, principal
 * variation search and leaf quiescence, so the same values, node counts and stopping node. Its table,
 * killers and history live in a context (new_context()), one per Search, beside the Python ones, which then
 * hold only the placement nodes: their keys, plies and moves never meet the stacking ones. */

#define MAXPLY 256
#define NMOVES 1024
#define MAXSTACKINGS 256 /* neighbour pairs on the board: Pylon's has 98 */
#define ZCODES 2048 /* search._Z: per square, heights to 63 */
#define CTX_NAME "parlor.pylon.search"

typedef struct { /* 16 bytes: values within +-INF (100,000), depths within 60 (Search.root), moves < 1024 */
    uint64_t key;
    int32_t value;
    short move;
    signed char depth;
    unsigned char bits; /* 1: used, 2: exact, 4 * (flag + 1): the bound (0 exact value, 1 lower, -1 upper) */
} TTE;

#define TT_USED(e) ((e).bits & 1)
#define TT_EXACT(e) (((e).bits >> 1) & 1)
#define TT_FLAG(e) ((int)((e).bits >> 2) - 1)

typedef struct {
    TTE *tt;
    size_t cap, count;
    int killers[MAXPLY][2];
    int nkillers[MAXPLY];
    long long history[NMOVES];
} Ctx;

static void ctx_free(PyObject *capsule) {
    Ctx *c = PyCapsule_GetPointer(capsule, CTX_NAME);
    if (c != NULL) {
        PyMem_Free(c->tt);
        PyMem_Free(c);
    }
}

/* new_context() -> a capsule holding one search's stacking table, killers and history. */
static PyObject *new_context(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args)) {
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (c == NULL) return PyErr_NoMemory();
    c->cap = 1 << 12;
    c->tt = PyMem_Calloc(c->cap, sizeof(TTE));
    if (c->tt == NULL) {
        PyMem_Free(c);
        return PyErr_NoMemory();
    }
    PyObject *cap = PyCapsule_New(c, CTX_NAME, ctx_free);
    if (cap == NULL) {
        PyMem_Free(c->tt);
        PyMem_Free(c);
    }
    return cap;
}

static Ctx *ctx_of(PyObject *capsule) {
    Ctx *c = PyCapsule_GetPointer(capsule, CTX_NAME);
    if (c == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "Pylon negamax: not a search context");
    return c;
}

/* history(ctx) -> {move: count} of the moves the stacking search credited (the root orders by it). */
static PyObject *history(PyObject *Py_UNUSED(self), PyObject *capsule) {
    Ctx *c = ctx_of(capsule);
    if (c == NULL) return NULL;
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    for (int m = 0; m < NMOVES; m++) {
        if (!c->history[m]) continue;
        PyObject *k = PyLong_FromLong(m), *v = PyLong_FromLongLong(c->history[m]);
        if (k == NULL || v == NULL || PyDict_SetItem(d, k, v)) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return d;
}

static uint64_t mix(uint64_t k) { return k ^ (k >> 29) ^ (k >> 41); }

static const TTE *tt_find(const Ctx *c, uint64_t key) {
    size_t mask = c->cap - 1, i = (size_t)mix(key) & mask;
    while (TT_USED(c->tt[i])) {
        if (c->tt[i].key == key) return &c->tt[i];
        i = (i + 1) & mask;
    }
    return NULL;
}

static int tt_put(Ctx *c, uint64_t key, int depth, long value, int flag, int move, int exact) {
    if (2 * (c->count + 1) > c->cap) {
        size_t ncap = c->cap * 2, mask = ncap - 1;
        TTE *nt = PyMem_Calloc(ncap, sizeof(TTE));
        if (nt == NULL) return -1;
        for (size_t j = 0; j < c->cap; j++) {
            if (!TT_USED(c->tt[j])) continue;
            size_t i = (size_t)mix(c->tt[j].key) & mask;
            while (TT_USED(nt[i])) i = (i + 1) & mask;
            nt[i] = c->tt[j];
        }
        PyMem_Free(c->tt);
        c->tt = nt;
        c->cap = ncap;
    }
    size_t mask = c->cap - 1, i = (size_t)mix(key) & mask;
    while (TT_USED(c->tt[i]) && c->tt[i].key != key) i = (i + 1) & mask;
    if (!TT_USED(c->tt[i])) c->count++;
    TTE *e = &c->tt[i];
    e->key = key;
    e->depth = (signed char)depth;
    e->value = (int32_t)value;
    e->move = (short)move;
    e->bits = (unsigned char)(1 | (exact ? 2 : 0) | ((flag + 1) << 2));
    return 0;
}

typedef struct {
    Q q;
    Ctx *c;
    const Nbrs *g;
    const uint64_t *z; /* per square 2048 codes, index h * 32 + top * 16 + ts * 4 + bs (search._code) */
    uint64_t key;
    int qdepth, pvs, exact;
    long inf;
} N;

static long negamax_c(N *s, int depth, int side, long alpha, long beta, int ply) {
    Q *q = &s->q;
    if (tick(q)) return 0;
    const TTE *e = tt_find(s->c, s->key);
    int first = -1;
    if (e != NULL) {
        first = e->move;
        int flag = TT_FLAG(*e);
        if (e->depth >= depth &&
            (flag == 0 || (flag == 1 && e->value >= beta) || (flag == -1 && e->value <= alpha))) {
            if (!TT_EXACT(*e)) s->exact = 0;
            return e->value;
        }
    }
    if (depth <= 0) { /* the leaf: the game-over test, then the quiescence */
        int over;
        long v = quiesce(q, side, alpha, beta, s->qdepth, 1, &over);
        if (q->stop) return 0;
        if (!over) s->exact = 0;
        return v;
    }
    int *h = q->h, *top = q->top, *ts = q->ts, *bs = q->bs, n = q->n;
    int moves[MAXSTACKINGS], k = 0; /* a few kilobytes a ply: fine on a thread's stack */
    long long keys[MAXSTACKINGS];
    const int *kl = ply < MAXPLY ? s->c->killers[ply] : NULL;
    int nk = ply < MAXPLY ? s->c->nkillers[ply] : 0;
    for (int x = 0; x < n; x++) { /* Search.stackings, each with Search._order's key */
        if (!h[x]) continue;
        for (int j = 0; j < s->g->count[x]; j++) {
            int y = s->g->nb[x][j];
            if (!h[y] || bs[x] > ts[y]) continue;
            int m = x * 32 + y;
            long long key;
            if (m == first)
                key = -1000000;
            else if (top[x] == side && top[y] != side)
                key = -100000 - (long long)h[y];
            else if ((nk > 0 && kl[0] == m) || (nk > 1 && kl[1] == m))
                key = -50000;
            else if (top[x] != side && top[y] == side)
                key = 50000 + (long long)h[y];
            else
                key = -s->c->history[m];
            int i = k++;
            while (i > 0 && keys[i - 1] > key) { /* a stable insertion sort, as sorted() */
                keys[i] = keys[i - 1];
                moves[i] = moves[i - 1];
                i--;
            }
            keys[i] = key;
            moves[i] = m;
        }
    }
    if (!k) return final_value(q, side);
    int outer = s->exact;
    s->exact = 1;
    long alpha0 = alpha, best = -s->inf;
    int best_move = -1;
    for (int i = 0; i < k; i++) {
        int m = moves[i], x = m >> 5, y = m & 31, by = bs[y];
        Undo u;
        stack_onto(q, x, y, &u);
        const uint64_t *zy = s->z + (size_t)y * ZCODES;
        uint64_t delta = s->z[(size_t)x * ZCODES + (size_t)(u.hx * 32 + u.tx * 16 + u.tsx * 4 + u.bx)] ^
                         zy[u.hy * 32 + u.ty * 16 + u.tsy * 4 + by] ^
                         zy[(u.hx + u.hy) * 32 + u.tx * 16 + u.tsx * 4 + by];
        s->key ^= delta;
        long v;
        if (i && s->pvs) { /* a null window first: most moves only need to be shown no better */
            v = -negamax_c(s, depth - 1, 1 - side, -alpha - 1, -alpha, ply + 1);
            if (!q->stop && alpha < v && v < beta)
                v = -negamax_c(s, depth - 1, 1 - side, -beta, -alpha, ply + 1);
        } else {
            v = -negamax_c(s, depth - 1, 1 - side, -beta, -alpha, ply + 1);
        }
        s->key ^= delta;
        unstack(q, x, y, &u);
        if (q->stop) return 0;
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    if (!(top[x] == side && top[y] != side) && ply < MAXPLY) { /* not a capture: a killer */
                        int *ks = s->c->killers[ply], *cnt = &s->c->nkillers[ply];
                        if (!((*cnt > 0 && ks[0] == m) || (*cnt > 1 && ks[1] == m))) {
                            ks[1] = ks[0];
                            ks[0] = m;
                            if (*cnt < 2) (*cnt)++;
                        }
                    }
                    s->c->history[m] += (long long)depth * depth;
                    break;
                }
            }
        }
    }
    int flag = best >= beta ? 1 : (best <= alpha0 ? -1 : 0);
    if (tt_put(s->c, s->key, depth, best, flag, best_move, s->exact)) {
        q->stop = -1;
        PyErr_NoMemory();
        return 0;
    }
    s->exact = outer && s->exact;
    return best;
}

static const uint64_t *cached_z = NULL;
static PyObject *cached_z_key = NULL;
static Py_ssize_t cached_z_n = 0;

static const uint64_t *zobrist_of(PyObject *z, Py_ssize_t n) {
    if (z != cached_z_key || n != cached_z_n) {
        if (!PyList_Check(z) || PyList_GET_SIZE(z) != n) {
            PyErr_SetString(PyExc_TypeError, "Pylon negamax: the zobrist codes must be a list, one per square");
            return NULL;
        }
        uint64_t *t = PyMem_Malloc(sizeof(uint64_t) * ZCODES * (size_t)(n ? n : 1));
        if (t == NULL) return (const uint64_t *)PyErr_NoMemory();
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *row = PyList_GET_ITEM(z, i);
            if (!PyList_Check(row) || PyList_GET_SIZE(row) != ZCODES) {
                PyErr_SetString(PyExc_TypeError, "Pylon negamax: each square needs 2048 zobrist codes");
                PyMem_Free(t);
                return NULL;
            }
            for (Py_ssize_t j = 0; j < ZCODES; j++) {
                t[i * ZCODES + j] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(row, j));
                if (PyErr_Occurred()) {
                    PyMem_Free(t);
                    return NULL;
                }
            }
        }
        PyMem_Free((void *)cached_z);
        cached_z = t;
        cached_z_n = n;
        Py_INCREF(z);
        Py_XSETREF(cached_z_key, z);
    }
    return cached_z;
}

/* negamax(h, top, ts, bs, side, alpha, beta, depth, ply, stacks, key, table, reach, zobrist, nodes, budget,
 * deadline, clock, win, qdepth, pvs, inf, ctx, exact, neighbours) -> (value, nodes, status, exact): status 0
 * done, 2 the node budget or the time cap ran out (the value means nothing); exact: the search's exactness
 * flag after the call (given before it), as Search.negamax leaves self.exact. */
static PyObject *negamax_py(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 25) {
        PyErr_SetString(PyExc_TypeError, "negamax takes 25 positional arguments");
        return NULL;
    }
    N s;
    Nbrs g;
    Q *q = &s.q;
    Py_ssize_t n;
    if (read_board(args, &n, q->h, q->top, q->ts, q->bs)) return NULL;
    q->n = (int)n;
    g.n = (int)n;
    long side = PyLong_AsLong(args[4]), alpha = PyLong_AsLong(args[5]), beta = PyLong_AsLong(args[6]);
    long depth = PyLong_AsLong(args[7]), ply = PyLong_AsLong(args[8]), stacks = PyLong_AsLong(args[9]);
    if (PyErr_Occurred()) return NULL;
    s.key = PyLong_AsUnsignedLongLongMask(args[10]);
    if (PyErr_Occurred()) return NULL;
    q->table = table_of(args[11], &q->table_len);
    if (q->table == NULL) return NULL;
    q->reach = reach_of(args[12], n);
    if (q->reach == NULL) return NULL;
    s.z = zobrist_of(args[13], n);
    if (s.z == NULL) return NULL;
    q->nodes = PyLong_AsLongLong(args[14]);
    q->budget = PyLong_AsLongLong(args[15]);
    q->deadline = PyFloat_AsDouble(args[16]);
    q->clock = args[17];
    long win = PyLong_AsLong(args[18]), qdepth = PyLong_AsLong(args[19]);
    int pvs = PyObject_IsTrue(args[20]);
    long inf = PyLong_AsLong(args[21]);
    if (PyErr_Occurred() || pvs < 0) return NULL;
    s.c = ctx_of(args[22]);
    if (s.c == NULL) return NULL;
    int exact = PyObject_IsTrue(args[23]);
    if (exact < 0 || read_nbrs(args[24], &g)) return NULL;
    int pairs = 0;
    for (int x = 0; x < g.n; x++) pairs += g.count[x];
    if (pairs > MAXSTACKINGS) {
        PyErr_SetString(PyExc_ValueError, "Pylon negamax: more than 256 neighbour pairs");
        return NULL;
    }
    if ((side != 0 && side != 1) || stacks < 0 || stacks >= q->table_len || ply < 0 || depth > 100) {
        PyErr_SetString(PyExc_ValueError,
                        "Pylon negamax: side 0 or 1, stacks within the weight table, ply >= 0, depth <= 100");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (q->h[i] && (q->top[i] < 0 || q->top[i] > 1 || q->h[i] > 63 || q->bs[i] < 0 || q->bs[i] > 3)) {
            PyErr_SetString(PyExc_ValueError, "Pylon negamax: a stack off the zobrist codes");
            return NULL;
        }
    }
    q->stacks = (int)stacks;
    q->win = (int)win;
    q->stop = 0;
    s.g = &g;
    s.qdepth = (int)qdepth;
    s.pvs = pvs;
    s.inf = inf;
    s.exact = exact;
    long v = negamax_c(&s, (int)depth, (int)side, alpha, beta, (int)ply);
    if (q->stop < 0) return NULL;
    return Py_BuildValue("lLiO", v, q->nodes, q->stop ? 2 : 0, s.exact ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"scan_full", (PyCFunction)(void (*)(void))scan_full, METH_FASTCALL,
     "boardscan.scan_full_python, compiled (the same arguments, by position, and result)."},
    {"quiesce", (PyCFunction)(void (*)(void))quiesce_py, METH_FASTCALL,
     "search.Search.quiesce on a full board, compiled (see _scan.pyi)."},
    {"stackings", (PyCFunction)(void (*)(void))stackings, METH_FASTCALL,
     "search.Search.stackings, compiled (see _scan.pyi)."},
    {"order", (PyCFunction)(void (*)(void))order, METH_FASTCALL,
     "search.Search._order's sort, compiled (see _scan.pyi)."},
    {"playouts", (PyCFunction)(void (*)(void))playouts, METH_FASTCALL,
     "ai._playouts_python, compiled (see _scan.pyi)."},
    {"uct", (PyCFunction)(void (*)(void))uct, METH_FASTCALL, "ai._uct_python, compiled (see _scan.pyi)."},
    {"negamax", (PyCFunction)(void (*)(void))negamax_py, METH_FASTCALL,
     "search.Search.negamax on a full board, compiled (see _scan.pyi)."},
    {"new_context", new_context, METH_NOARGS, "A search's stacking table, killers and history (see _scan.pyi)."},
    {"history", history, METH_O, "The stacking search's history counts of a context (see _scan.pyi)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_scan", "Pylon's board scan and capture quiescence, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module); }
