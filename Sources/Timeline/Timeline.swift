// Timeline
