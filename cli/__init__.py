"""The `ttr-maps` command line (installed as `ttr_maps.cli`): thin click wrappers over the library."""
