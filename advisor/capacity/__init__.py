"""The capacity what-if: measured run times in, the average job time for N jobs out
(chew's linear degradation model, `rules.capacity`), as a page panel and an API."""
