// ZoomMapping
