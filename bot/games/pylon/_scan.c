/* Pylon hard's board scan, compiled: the same function as boardscan.scan_full (the pure-Python one is the
 * reference and the fallback; tests/games/pylon/test_boardscan_compiled.py holds them equal).
 *
 * The floating-point sum is done in the same order as Python's, in doubles, with no fused multiply-add
 * (setup.py compiles with -ffp-contract=off), and rounded half to even as Python's round() does, so the
 * value is the same integer bit for bit and the search makes the same moves with either scan. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#define MAXSQ 64

static int read_ints(PyObject *list, long *out, Py_ssize_t n, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "scan_full: %s must be a list of %zd ints", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = v;
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

/* The last weights read, kept (with a reference, so that its address is not reused) with their values:
 * the search passes the same entry of its weight table at every node. */
static PyObject *cached_weights = NULL;
static double cached_w[12], cached_w_size[4];

static int read_weights(PyObject *weights) {
    if (weights == cached_weights) return 0;
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != 2) {
        PyErr_SetString(PyExc_TypeError, "scan_full: weights must be a pair (w, w_size)");
        return -1;
    }
    PyObject *wo = PyTuple_GET_ITEM(weights, 0), *wso = PyTuple_GET_ITEM(weights, 1);
    double w[12], w_size[4];
    for (int i = 0; i < 12; i++)
        if (read_float(wo, i, &w[i])) return -1;
    for (int i = 0; i < 4; i++)
        if (read_float(wso, i, &w_size[i])) return -1;
    memcpy(cached_w, w, sizeof w);
    memcpy(cached_w_size, w_size, sizeof w_size);
    Py_INCREF(weights);
    Py_XSETREF(cached_weights, weights);
    return 0;
}

/* scan_full(h, top, ts, bs, side, caps, weights, reach, empty_reaches=False), positional only */
static PyObject *scan_full(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 && nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "scan_full takes 8 or 9 positional arguments");
        return NULL;
    }
    PyObject *ho = args[0], *topo = args[1], *tso = args[2], *bso = args[3], *capso = args[5];
    PyObject *weights = args[6], *reach = args[7];
    long side = PyLong_AsLong(args[4]);
    if (side == -1 && PyErr_Occurred()) return NULL;
    int empty_reaches = nargs == 9 ? PyObject_IsTrue(args[8]) : 0;
    if (empty_reaches < 0) return NULL;
    if (!PyList_Check(ho) || PyList_GET_SIZE(ho) > MAXSQ) {
        PyErr_SetString(PyExc_TypeError, "scan_full: h must be a list of at most 64 ints");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(ho);
    long h[MAXSQ], top[MAXSQ], ts[MAXSQ], bs[MAXSQ];
    if (read_ints(ho, h, n, "h") || read_ints(topo, top, n, "top") || read_ints(tso, ts, n, "ts")
        || read_ints(bso, bs, n, "bs"))
        return NULL;
    if (capso != Py_None && !PyList_Check(capso)) {
        PyErr_SetString(PyExc_TypeError, "scan_full: caps must be a list or None");
        return NULL;
    }
    if (!PyList_Check(reach) || PyList_GET_SIZE(reach) != n) {
        PyErr_SetString(PyExc_TypeError, "scan_full: reach must hold one entry per square");
        return NULL;
    }
    if (read_weights(weights)) return NULL;
    const double *w = cached_w, *w_size = cached_w_size;
    double w_stack = w[6], w_bot1 = w[11], w_locked = w[1];

    double acc = 0.0;
    long cap_me = 0, cap_them = 0, maxcap_me = 0, maxcap_them = 0, mob = 0;
    int anymove = 0;
    for (Py_ssize_t y = 0; y < n; y++) {
        long hy = h[y];
        if (!hy) continue;
        long o = top[y];
        if (ts[y] < 0 || ts[y] > 3) {
            PyErr_SetString(PyExc_ValueError, "scan_full: a top size must be 0..3");
            return NULL;
        }
        double v = (double)hy * w_size[ts[y]] + w_stack + (bs[y] == 1 ? w_bot1 : 0.0);
        int reached = 0, near = 0, cap = 0;
        PyObject *per = PyList_GET_ITEM(reach, y);
        if (!PyTuple_Check(per) || PyTuple_GET_SIZE(per) != 4) {
            PyErr_SetString(PyExc_TypeError, "scan_full: reach[y] must be a 4-tuple");
            return NULL;
        }
        PyObject *ns = PyTuple_GET_ITEM(per, ts[y]);
        if (!PyTuple_Check(ns)) {
            PyErr_SetString(PyExc_TypeError, "scan_full: reach[y][t] must be a tuple");
            return NULL;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(ns);
        for (Py_ssize_t j = 0; j < k; j++) {
            long nb = PyLong_AsLong(PyTuple_GET_ITEM(ns, j));
            if (nb < 0 || nb >= n) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "scan_full: a neighbour is off the board");
                return NULL;
            }
            if (h[nb]) {
                reached = 1;
                if (top[nb] == side) {
                    mob += 1;
                    if (o != side) {
                        cap = 1;
                        if (capso != Py_None) {
                            PyObject *c = PyLong_FromLong(nb * 32 + (long)y);
                            if (c == NULL) return NULL;
                            int bad = PyList_Append(capso, c);
                            Py_DECREF(c);
                            if (bad) return NULL;
                        }
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
            anymove = 1;
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
    double tail = w[2] * (double)cap_me;
    tail = tail + w[3] * (double)cap_them;
    tail = tail + w[4] * (double)maxcap_me;
    tail = tail + w[5] * (double)maxcap_them;
    tail = tail + w[10] * (double)mob;
    acc += tail;
    double r = nearbyint(acc); /* the default rounding mode: half to even, as round() */
    PyObject *value = PyLong_FromDouble(r);
    if (value == NULL) return NULL;
    return Py_BuildValue("NO", value, anymove ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"scan_full", (PyCFunction)(void (*)(void))scan_full, METH_FASTCALL,
     "boardscan.scan_full, compiled (the same arguments and result)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_scan", "Pylon's board scan, compiled.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module); }
