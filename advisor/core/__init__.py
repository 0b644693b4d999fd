"""Site-wide pieces every feature shares: the organisation a user acts for, the request
size limit, and the error pages with the JSON error envelope for /api/ paths."""
