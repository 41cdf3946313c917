// GalleryLayout
