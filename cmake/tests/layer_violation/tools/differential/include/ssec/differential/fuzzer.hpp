// Stands for the differential library's header in the layer check's negative test.
