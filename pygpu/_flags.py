"""ndarray.flags: a dict of NumPy's flag names (C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE, OWNDATA)
that also answers as numpy's flags object does: one-letter and long abbreviations as keys
(flags['C'], flags['FORTRAN']), the derived flags (ALIGNED, FORC, FNC, BEHAVED, CARRAY, FARRAY)
and lower-case attributes (a.flags.c_contiguous, a.flags.writeable); printed as NumPy prints its six."""

_ALIASES = {"C": "C_CONTIGUOUS", "CONTIGUOUS": "C_CONTIGUOUS", "F": "F_CONTIGUOUS", "FORTRAN": "F_CONTIGUOUS",
            "W": "WRITEABLE", "O": "OWNDATA", "A": "ALIGNED", "X": "WRITEBACKIFCOPY"}

_REPR_ORDER = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")


class Flags(dict):
    """The flags of a pygpu array (a snapshot: a dict of the four flags, plus NumPy's spellings);
    setting WRITEABLE or ALIGNED (flags['W'] = False, flags.aligned = False) sets the array's, as
    setflags(write=..., align=...) does."""

    __slots__ = ("_array", "_aligned")

    def __init__(self, values, array=None, aligned=True):
        super().__init__(values)
        self._array = array
        self._aligned = aligned   # pygpu's elements are aligned: False after setflags(align=False) only

    def __setitem__(self, key, value):
        key = _ALIASES.get(key, key)
        if key == "ALIGNED" and self._array is not None:
            self._array.setflags(align=value)
            self._aligned = bool(value)
            return
        if key != "WRITEABLE" or self._array is None:
            raise KeyError(f"cannot set the {key} flag of a pygpu array" if key in self else key)
        self._array.setflags(write=value)
        dict.__setitem__(self, key, bool(value))

    def __setattr__(self, name, value):
        if name.startswith("_"):
            return object.__setattr__(self, name, value)
        try:
            self[name.upper()] = value
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __getitem__(self, key):
        key = _ALIASES.get(key, key)
        if key == "ALIGNED":
            return self._aligned
        if key == "WRITEBACKIFCOPY":
            return False
        if key == "FORC":
            return self["C_CONTIGUOUS"] or self["F_CONTIGUOUS"]
        if key == "FNC":
            return self["F_CONTIGUOUS"] and not self["C_CONTIGUOUS"]
        if key == "BEHAVED":
            return self["WRITEABLE"] and self._aligned
        if key == "CARRAY":
            return self["C_CONTIGUOUS"] and self["BEHAVED"]
        if key == "FARRAY":
            return self["F_CONTIGUOUS"] and self["BEHAVED"] and not self["C_CONTIGUOUS"]
        return dict.__getitem__(self, key)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name.upper()]
        except KeyError:
            raise AttributeError(f"'pygpu flags' object has no attribute '{name}'") from None

    def __repr__(self):
        # NumPy's six lines, in its order
        return "".join(f"  {k} : {self[k]}\n" for k in _REPR_ORDER)
