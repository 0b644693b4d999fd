"""Facts several rules derive from one inventory, computed in one place.

Like insights-core's combiners: the transfer size pages should match, CPUCOUNT and the run
queue bands, memory per session, the SPD Server data paths planned, OS labels, and when
a rule applies. Rule modules import from here and never from each other.
"""
